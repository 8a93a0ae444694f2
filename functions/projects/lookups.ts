// The reads of the projects domain's queries that other domains use below their own policy check (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle. Prefer the domain's reads.ts or service verbs where those fit.
export { findProjectView, findRedirectedProjectId, listProjectViews, projectViewQuery, teamMemberSql, toProjectView } from '../../db/queries/projects.ts';
