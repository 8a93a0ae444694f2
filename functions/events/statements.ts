// The statements of the events domain's queries that other domains put in their own batch or transaction (own-queries
// in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing
// it closes no cycle.
export { deleteEventsBefore } from '../../db/queries/events/retention.ts';
