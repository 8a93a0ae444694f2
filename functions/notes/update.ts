// Notes::UpdateService: a note's body and confidentiality, with the mention to-dos its new body gives, in one
// transaction.
import { insertAlertTodosStatement } from '../todos/statements.ts';
import * as q from '../../db/queries/notes.ts';
import { createMentionTodos } from '../issuables/mention-todos.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { assertCan, can } from '../lib/policy.ts';
import { epicMentionTodoStatements } from '../todos/epic-mentions.ts';
import type { Output } from '../lib/validate.ts';
import type { NoteableRef } from './noteables.ts';
import type { UpdateNoteInput } from './schemas.ts';
import { checkBody, findNote } from './service.ts';
import { noteReader, mentionActions, mentionsOf } from './mentions.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export async function updateNote({ ctx, input }: Verb<{ noteable: NoteableRef; noteId: number | null; params: Output<typeof UpdateNoteInput> }>) {
  const user = requireUser(ctx);
  const { noteable, view, facts } = await findNote(ctx, input.noteable, input.noteId);
  assertCan(ctx.actor, 'note:admin', facts);
  const p = input.params;
  if (p.body !== undefined) checkBody(p.body, { label: 'Failed to save note', via: 'bad_request' });
  const confidential = p.confidential !== undefined && can(ctx.actor, 'noteable:create_confidential_note', noteable.facts) ? p.confidential : undefined;
  if (p.body === undefined && confidential === undefined) return { noteable, view };
  const note = view.note;
  await ctx.transaction(async (tx) => {
    const now = new Date();
    await q.updateNote(tx, note.id, { body: p.body, confidential, updatedAt: now, updatedById: user.id });
    const key = noteable.key;
    if (p.body !== undefined && key.type === 'Epic') {
      const mayRead = noteReader(noteable, { confidential: confidential ?? note.confidential });
      const mentions = await mentionsOf(ctx, noteable, [p.body], [note.body], mayRead);
      for (const s of epicMentionTodoStatements(tx, { epicId: key.id, groupId: noteable.epic!.view.epic.groupId }, user.id, mentions, note.id)) await s;
    }
    if (p.body !== undefined && key.type === 'AlertManagement::Alert') {
      const mentions = await mentionsOf(ctx, noteable, [p.body], [note.body], noteReader(noteable, { confidential: confidential ?? note.confidential }));
      if (mentions.length)
        await insertAlertTodosStatement(tx, { id: key.id, projectId: noteable.project!.project.id }, user.id, mentionActions(mentions), note.id);
    }
    if (p.body !== undefined && (key.type === 'Issue' || key.type === 'MergeRequest')) {
      await createMentionTodos(tx, {
        project: noteable.project!,
        issue: { type: key.type, id: key.id, projectId: noteable.project!.project.id },
        authorId: user.id,
        texts: [p.body],
        before: [note.body],
        noteId: note.id,
        mayRead: noteReader(noteable, { confidential: confidential ?? note.confidential }),
      });
    }
  });
  return { noteable, view: (await q.findNoteById(ctx.db, note.id))! };
}
