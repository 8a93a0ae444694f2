// The statements of the repositories domain's queries that other domains put in their own batch or transaction
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { forkProjectQueries } from '../../db/queries/repositories/forks.ts';
export { deleteReplacedPacks } from '../../db/queries/repositories/packs.ts';
export { deleteUnusedPools, setDefaultBranchQuery, setMergeRequestRefQuery } from '../../db/queries/repositories/refs.ts';
