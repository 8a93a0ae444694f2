// What GraphQL's Note and Discussion types are resolved from. schema/codegen.ts maps each `<Type>Model` exported here
// to the GraphQL type <Type>.
import type { NoteView } from '../../db/queries/notes.ts';
import type { Noteable } from './service.ts';

/** A note with its noteable (whose facts decide what the actor may do with the note). */
export interface NoteModel {
  noteable: Noteable;
  view: NoteView;
}
/** A discussion: the notes sharing one discussion_id, oldest first (readable ones only). */
export interface DiscussionModel {
  noteable: Noteable;
  id: string;
  notes: NoteView[];
}
