// The reads of the repositories domain's queries that other domains use below their own policy check (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle. Prefer the domain's reads.ts or service verbs where those fit.
export { refsContaining } from '../../db/queries/repositories/containing.ts';
export { changedPaths, commitsBetween } from '../../db/queries/repositories/diffs.ts';
export { readTouchedDirs } from '../../db/queries/repositories/dirs.ts';
export { namespaceIsLive } from '../../db/queries/repositories/forks.ts';
export { commitsByOids } from '../../db/queries/repositories/log-graph.ts';
export { logPage, readObjects, readPath, resolveRevision, blobsAtPaths, treePage } from '../../db/queries/repositories/reads.ts';
export { findRef, findRefs, findRepositoriesOfProjects, findRepository, listRefs } from '../../db/queries/repositories/refs.ts';
