// The reads of the merge-requests domain's queries that other domains use below their own policy check (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle. Prefer the domain's reads.ts or service verbs where those fit.
export { countMergeRequests, findMergeRequestViewById, findMergeRequestViewsByIds, listMergeRequestViews } from '../../db/queries/merge-requests.ts';
export { closingMergeRequestIds, findDiffVersionBySha } from '../../db/queries/merge-requests/versions.ts';
export { openMergeRequestLinks } from '../../db/queries/merge-requests/links.ts';
