// The statements of the notes domain's queries that other domains put in their own batch or transaction (own-queries in
// .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries, so importing it
// closes no cycle.
export { alertSystemNoteStatement, deleteNotesOf, insertNoteStatements, setDiscussionResolved, setNoteResolved } from '../../db/queries/notes.ts';
