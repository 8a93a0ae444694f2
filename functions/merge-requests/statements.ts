// The statements of the merge-requests domain's queries that other domains put in their own batch or transaction
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { insertMergeRequestSystemNote } from '../../db/queries/merge-requests.ts';
