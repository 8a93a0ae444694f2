// The statements of the oauth domain's queries that other domains put in their own batch or transaction (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle.
export { revokeOAuthOfUser } from '../../db/queries/oauth.ts';
export { revokeAuthorization } from '../../db/queries/oauth.ts';
