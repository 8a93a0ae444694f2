// `git log --topo-order` (revision.c's sort_in_topological_order with REV_SORT_IN_GRAPH_ORDER): no commit before
// all of its children, and a line of history shown whole before the one it was merged into. Starting from the
// commits no other commit of the walk names as a parent (in the walk's date order), a LIFO work list takes a commit
// and, once all of a parent's children are out, pushes that parent: a merge's later parents are pushed last, so
// the merged branch comes first.
import type { GraphNode } from '../../../db/queries/repositories/log-graph.ts';

/** The nodes (given newest committed first) in git's topological order. */
export function topoOrder(nodes: readonly GraphNode[]): GraphNode[] {
  const byOid = new Map(nodes.map((n) => [n.oid, n]));
  // git's indegree: 1 + the number of children in the walk (0 once emitted).
  const indegree = new Map(nodes.map((n) => [n.oid, 1]));
  for (const n of nodes) for (const p of n.parents) if (indegree.has(p)) indegree.set(p, indegree.get(p)! + 1);
  // The tips in the walk's order; reversed onto a stack so the first tip is taken first.
  const stack = nodes.filter((n) => indegree.get(n.oid) === 1).reverse();
  const out: GraphNode[] = [];
  for (let commit = stack.pop(); commit; commit = stack.pop()) {
    for (const p of commit.parents) {
      const d = indegree.get(p);
      if (!d) continue;
      indegree.set(p, d - 1);
      if (d - 1 === 1) stack.push(byOid.get(p)!);
    }
    indegree.set(commit.oid, 0);
    out.push(commit);
  }
  return out;
}
