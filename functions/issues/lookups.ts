// The reads of the issues domain's queries that other domains use below their own policy check (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle. Prefer the domain's reads.ts or service verbs where those fit.
export {
  countIssues,
  findIssueViewById,
  findIssueViewsByIds,
  findLabelIdsByTitle,
  issueViewByProjectRefQuery,
  listIssueViews,
} from '../../db/queries/issues.ts';
export { timeboxReportEvents } from '../../db/queries/issues/resource-events.ts';
export { issuePositions, maxRelativePosition } from '../../db/queries/issues/positions.ts';
