// The reads of the groups domain's queries that other domains use below their own policy check (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle. Prefer the domain's reads.ts or service verbs where those fit.
export { findGroupView, hierarchyMemberSql, namespaceScope } from '../../db/queries/groups.ts';
export { findNamespaceView, findPersonalNamespace, fullPathTaken, lockFullPath, lockLiveNamespace } from '../../db/queries/groups/namespaces.ts';
