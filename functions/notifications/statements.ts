// The statements of the notifications domain's queries that other domains put in their own batch or transaction
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { setLabelSubscription } from '../../db/queries/notifications/label-subscriptions.ts';
export { setSubscription } from '../../db/queries/notifications/subscriptions.ts';
