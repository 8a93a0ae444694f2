// Notes::CreateService: the one write of a comment for REST and GraphQL (notes, discussions, commit comments).
import { sql } from 'drizzle-orm';
import { newIssueLinkStatements } from '../issues/statements.ts';
import { mentionTodosStatement } from '../todos/statements.ts';
import { insertAlertTodosStatement } from '../todos/statements.ts';
import * as q from '../../db/queries/notes.ts';
import { eventStatement } from '../events/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { validationFailed } from '../lib/errors.ts';
import { assertCan, can } from '../lib/policy.ts';
import { epicMentionTodoStatements } from '../todos/epic-mentions.ts';
import type { Output } from '../lib/validate.ts';
import type { Noteable } from './noteables.ts';
import type { CreateNoteInput } from './schemas.ts';
import { checkBody, type NoteFailure, type NoteStart } from './service.ts';
import { noteReader, mentionActions, mentionsOf } from './mentions.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const sameNoteable = (a: q.NoteableKey | null, b: q.NoteableKey) => a !== null && q.noteableKeyString(a) === q.noteableKeyString(b);

/**
 * Notes::CreateService, the one write of a comment for REST and GraphQL: on a noteable already found readable
 * (findNoteable, findNoteableById, commitNoteable), optionally a reply into one of its discussions (found readable
 * with findDiscussion). The note, the noteable touched, `commented`, mention to-dos. `failure`: how the endpoint
 * words a note the model refuses (the notes API's by default). `diffLine`: a commit comment placed on a line of the
 * commit's diff, stored as GitLab's LegacyDiffNote with its line code. `start`: the first note of a new discussion
 * (POST .../discussions): a DiscussionNote, or a DiffNote with its stored position and line code.
 */
export async function createNote({
  ctx,
  input,
}: Verb<{
  noteable: Noteable;
  params: Output<typeof CreateNoteInput>;
  replyTo?: q.NoteView | null;
  failure?: NoteFailure;
  diffLine?: { lineCode: string } | null;
  start?: NoteStart | null;
}>) {
  const { noteable, params: p, replyTo } = input;
  const user = requireUser(ctx);
  assertCan(ctx.actor, 'noteable:create_note', noteable.facts);
  checkBody(p.body, input.failure ?? { label: 'Note', via: 'bad_request' });
  if (replyTo && !sameNoteable(q.keyOfNote(replyTo.note), noteable.key)) {
    throw validationFailed({ base: ['Discussion to reply to cannot be found'] });
  }
  const discussionId = replyTo ? replyTo.note.discussionId : null;
  const confidential = p.confidential === true && can(ctx.actor, 'noteable:create_confidential_note', noteable.facts);
  const createdAt = p.created_at && can(ctx.actor, 'noteable:set_note_created_at', noteable.facts) ? p.created_at : undefined;
  const projectId = noteable.project?.project.id ?? null;
  const groupId = noteable.epic ? noteable.epic.view.epic.groupId : null;
  // No lock and no decision between the statements (db/client.ts's rule): who gets a mention to-do is read first
  // (notes on snippets make none: Note#can_create_todo?), then ONE batch inserts the note, touches the noteable,
  // records `commented`, inserts the to-dos and reads the note back.
  const mayRead = noteReader(noteable, { confidential });
  const key = noteable.key;
  const mentions = await mentionsOf(ctx, noteable, [p.body], undefined, mayRead);
  const diffLine = input.diffLine ?? null;
  const start = replyTo ? null : (input.start ?? null);
  const type = diffLine ? ('LegacyDiffNote' as const) : (start?.type ?? undefined);
  const values = {
    noteableType: key.type,
    ...(key.type === 'Commit' ? { noteableId: null, commitId: key.commitId } : { noteableId: key.id }),
    projectId,
    authorId: user.id,
    body: p.body,
    confidential,
    ...(diffLine ? { type, lineCode: diffLine.lineCode } : {}),
    ...(start?.type === 'DiscussionNote' ? { type: start.type } : {}),
    ...(start?.type === 'DiffNote' ? { type: start.type, position: start.position, lineCode: start.lineCode } : {}),
    ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
  };
  const noteId = q.lastNoteIdSql();
  const results = await ctx.batch((db) => [
    ...q.insertNoteStatements(db, values, key, discussionId),
    // The event's target_type is the note's class (EventCreateService#create_record_event).
    // An epic's note is its group's event (EventCreateService with the note's resource_parent: project_id null).
    eventStatement(db, {
      action: 'commented',
      authorId: user.id,
      projectId,
      groupId,
      target: { type: replyTo ? 'DiscussionNote' : (type ?? 'Note'), id: noteId },
    }),
    ...(key.type === 'Issue' ? newIssueLinkStatements(db, { id: sql<number>`${key.id}`, projectId: projectId! }, user.id, null, mentions, noteId) : []),
    ...(key.type === 'MergeRequest' && mentions.length
      ? [mentionTodosStatement(db, { type: 'MergeRequest', id: key.id, projectId: projectId! }, user.id, mentions, noteId)]
      : []),
    ...(key.type === 'Epic' ? epicMentionTodoStatements(db, { epicId: key.id, groupId: groupId! }, user.id, mentions, noteId) : []),
    ...(key.type === 'AlertManagement::Alert' && mentions.length
      ? [insertAlertTodosStatement(db, { id: key.id, projectId: projectId! }, user.id, mentionActions(mentions), noteId)]
      : []),
    q.lastInsertedNoteViewQuery(db),
  ]);
  const [view] = results[results.length - 1] as q.NoteView[];
  return { noteable, view: view! };
}
