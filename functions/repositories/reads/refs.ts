// Branch and tag reads (GitLab 13.6 lib/api/branches.rb, tags.rb with BranchesFinder/TagsFinder). The refs and
// their commits are one statement; `merged` needs the default branch's history (one more, only when some branch
// could be merged).
import { listRefCommits, logPage, readObjects, type RefWithCommit } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { decodeTag } from '../git/tag.ts';
import type { BranchView, TagView } from '../entities.ts';
import { canPushToBranch, developersCan, isProtectedBranch, isProtectedTag } from '../writes/push-access.ts';
import type { ListBranchesParams, ListTagsParams } from '../schemas.ts';
import { commitView, repositoryFor } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** How far back `merged` looks in the default branch's history (a branch merged earlier reads as not merged). */
const MERGED_HORIZON = 5000;

/**
 * BranchesFinder/TagsFinder#filter_by_name: case-insensitive; `^x` a prefix, `x$` a suffix, else a substring.
 */
export function nameFilter(search: string | undefined): (name: string) => boolean {
  if (!search) return () => true;
  const s = search.toLowerCase();
  if (s.startsWith('^')) return (n) => n.toLowerCase().startsWith(s.slice(1));
  if (s.endsWith('$')) return (n) => n.toLowerCase().endsWith(s.slice(0, -1));
  return (n) => n.toLowerCase().includes(s);
}

const shortName = (ref: string, prefix: string) => ref.slice(prefix.length);

/**
 * The project's branches as Entities::Branch sees them. Protection, developers_can_push/merge and who may push are
 * push-access.ts's rule over the project's protected branches (read with the repository row). `merged`: the tip is
 * in the default branch's history and is not its tip (Repository#merged_branch_names rejects branches at the root
 * ref's commit); only branches with a lower generation can be, so the history is read only when one exists.
 */
async function branchViews(ctx: RequestContext, project: Ref | null, only?: (name: string) => boolean) {
  const found = await repositoryFor(ctx, project, 'project:download_code');
  const { defaultBranch } = found.repository;
  const refs = (await listRefCommits(ctx.db, found.context.projectId, 'refs/heads/')).filter(
    (r): r is RefWithCommit & { commit: NonNullable<RefWithCommit['commit']> } => r.commit !== null && (!only || only(shortName(r.name, 'refs/heads/'))),
  );
  const head = refs.find((r) => shortName(r.name, 'refs/heads/') === defaultBranch)?.commit;
  const candidates = head ? refs.filter((r) => r.commit.oid !== head.oid && r.commit.generation < head.generation) : [];
  let history = new Set<string>();
  if (head && candidates.length) {
    const log = await logPage(ctx.db, { projectId: found.context.projectId, rev: head.oid, limit: MERGED_HORIZON, offset: 0 });
    history = new Set(log?.commits.map((c) => c.oid));
  }
  const branches = refs.map((r): BranchView => {
    const name = shortName(r.name, 'refs/heads/');
    const isDefault = name === defaultBranch;
    return {
      name,
      commit: commitView(r.commit),
      merged: head !== undefined && r.commit.oid !== head.oid && history.has(r.commit.oid),
      protected: isProtectedBranch(found.repository, name),
      developersCanPush: developersCan(found.repository, name, 'push'),
      developersCanMerge: developersCan(found.repository, name, 'merge'),
      canPush: canPushToBranch(ctx, found.facts, found.repository, name),
      default: isDefault,
    };
  });
  return { ...found, branches };
}

/**
 * GET repository/branches: `search` as BranchesFinder reads it; `sort` `updated_asc`/`updated_desc` (the tip's
 * committed date), anything else by name (the finder's default).
 */
export async function listBranches({ ctx, input }: Verb<{ project: Ref | null; params: ListBranchesParams }>) {
  const found = await branchViews(ctx, input.project, nameFilter(input.params.search));
  const sort = input.params.sort;
  if (sort === 'updated_asc' || sort === 'updated_desc') {
    const sign = sort === 'updated_asc' ? 1 : -1;
    found.branches.sort((a, b) => sign * (a.commit.committedAt.getTime() - b.commit.committedAt.getTime()) || (a.name < b.name ? -1 : 1));
  }
  return found;
}

/** GET repository/branches/:branch: 404 `Branch Not Found`. */
export async function getBranch({ ctx, input }: Verb<{ project: Ref | null; branch: string }>) {
  const found = await branchViews(ctx, input.project, (name) => name === input.branch);
  const branch = found.branches[0];
  if (!branch) throw notFound('Branch');
  return { ...found, branch };
}

/**
 * GET repository/tags: `search`, `order_by` name or updated (the commit's committed date), `sort`. An annotated
 * tag's message is read from its object (one more statement, only when there are annotated tags).
 */
export async function listTags({ ctx, input }: Verb<{ project: Ref | null; params: ListTagsParams }>) {
  const found = await repositoryFor(ctx, input.project, 'project:download_code');
  const p = input.params;
  const match = nameFilter(p.search);
  const refs = (await listRefCommits(ctx.db, found.context.projectId, 'refs/tags/')).filter(
    (r): r is RefWithCommit & { commit: NonNullable<RefWithCommit['commit']> } => r.commit !== null && match(shortName(r.name, 'refs/tags/')),
  );
  const annotated = refs.filter((r) => r.oid !== r.commit.oid).map((r) => r.oid);
  const messages = new Map<string, string>();
  for (const o of await readObjects(ctx.db, found.context.projectId, annotated)) {
    messages.set(o.oid, new TextDecoder().decode(decodeTag(o.data).message));
  }
  const tags = refs.map((r): TagView => ({
    name: shortName(r.name, 'refs/tags/'),
    message: messages.get(r.oid) ?? '',
    targetOid: r.oid,
    commit: commitView(r.commit),
    protected: isProtectedTag(found.repository, shortName(r.name, 'refs/tags/')),
  }));
  const sign = p.sort === 'asc' ? 1 : -1;
  const key = (t: TagView) => (p.order_by === 'name' ? t.name : t.commit.committedAt.getTime());
  tags.sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : a.name < b.name ? -1 : 1));
  return { ...found, tags };
}
