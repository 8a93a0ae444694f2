// The statements of the issues domain's queries that other domains put in their own batch or transaction (own-queries
// in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing
// it closes no cycle.
export { newIssueLinkStatements } from '../../db/queries/issues.ts';
export { setRelativePosition } from '../../db/queries/issues/positions.ts';
