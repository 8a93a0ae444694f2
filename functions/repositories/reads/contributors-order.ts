// Commit.order_by (GitLab 13.6 app/models/commit.rb) over contributors: `name` and `email` compare with Ruby's
// String#casecmp (ASCII letters folded, then byte order), `commits` as numbers; `desc` swaps the operands. Ruby's
// sort is not stable, so the order of ties is unspecified there; here ties keep the collection's order (newest
// contribution first).
export type ContributorOrder = 'name' | 'email' | 'commits';

const encoder = new TextEncoder();
const folded = (s: string) => encoder.encode(s).map((b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

/** Ruby's String#casecmp: -1, 0 or 1. */
export function casecmp(a: string, b: string): number {
  const x = folded(a);
  const y = folded(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return Math.sign(x.length - y.length);
}

export function orderContributors<T extends { name: string; email: string; commits: number }>(
  list: readonly T[],
  orderBy: ContributorOrder,
  sort: 'asc' | 'desc',
): T[] {
  const compare = (a: T, b: T) => (orderBy === 'commits' ? Math.sign(a.commits - b.commits) : casecmp(a[orderBy], b[orderBy]));
  return [...list].sort((a, b) => (sort === 'desc' ? compare(b, a) : compare(a, b)));
}
