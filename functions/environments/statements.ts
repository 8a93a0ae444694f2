// The statements of the environments domain's queries that other domains put in their own batch or transaction
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { insertEnvironment } from '../../db/queries/environments.ts';
