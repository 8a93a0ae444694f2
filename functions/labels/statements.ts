// The statements of the labels domain's queries that other domains put in their own batch or transaction (own-queries
// in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing
// it closes no cycle.
export { findOrCreateLabelLinkStatements, findOrCreateProjectLabels, linkAvailableLabelsStatement } from '../../db/queries/labels.ts';
export { insertLabel } from '../../db/queries/labels/writes.ts';
export { setEpicLabels } from '../../db/queries/labels/writes.ts';
