// Whom a note (or an edit of one) newly mentions and who may read it: the recipients of its mention to-dos, for
// create.ts and update.ts.
import type { UserRow } from '../../db/schema/index.ts';
import { TODO_DIRECTLY_ADDRESSED, TODO_MENTIONED } from '../todos/statements.ts';
import { freshMentions, mentionReaders, mentionTodoUsers } from '../issuables/mention-todos.ts';
import { readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { can, type NoteableFacts, type NoteFacts } from '../lib/policy.ts';
import { epicMentionUsers } from '../todos/epic-mentions.ts';
import type { Noteable } from './noteables.ts';

/** The mentioned users who may read the note (and so the noteable), at their level on the project. */
export const noteReader = (noteable: Noteable, note: Pick<NoteFacts, 'confidential'>) => (user: UserRow, accessLevel: number) =>
  can(readerActor(user), 'note:read', {
    kind: 'note',
    noteable: atLevel(noteable.facts, accessLevel),
    authorId: null,
    system: false,
    confidential: note.confidential,
  });

/** The noteable's facts for someone holding `accessLevel` where it lives (its project, or an epic's group). */
const atLevel = (f: NoteableFacts, accessLevel: number): NoteableFacts =>
  f.kind === 'epic' ? { ...f, group: { ...f.group, accessLevel, hasDescendantAccess: false } } : { ...f, project: { ...f.project, accessLevel } };

/** Mention to-dos' actions: directly addressed (`@user` leading the text) or mentioned. */
export const mentionActions = (mentions: ReadonlyArray<{ userId: number; direct: boolean }>) =>
  mentions.map((m) => ({ userId: m.userId, action: m.direct ? TODO_DIRECTLY_ADDRESSED : TODO_MENTIONED }));

/** Who a note's (or an edit's) body newly mentions and may read it: the to-dos' recipients. */
export async function mentionsOf(
  ctx: RequestContext,
  noteable: Noteable,
  texts: string[],
  before: string[] | undefined,
  mayRead: ReturnType<typeof noteReader>,
) {
  const key = noteable.key;
  if (key.type === 'Epic') return epicMentionUsers(ctx.db, { traversalIds: noteable.epic!.group.namespace.traversalIds, texts, before, mayRead });
  // Gap: GitLab gives to-dos for mentions in commit comments too; to-dos have no commit target here yet. Notes on
  // alerts give them (Note#can_create_todo?: not a system note, not on a snippet) to who may read the alert.
  if (key.type !== 'Issue' && key.type !== 'MergeRequest' && key.type !== 'AlertManagement::Alert') return [];
  const read = noteable.mentioned;
  if (!before && read && read.text === texts[0]) return mentionReaders(freshMentions(texts), read.candidates, mayRead);
  return mentionTodoUsers(ctx.db, { project: noteable.project!, texts, before, mayRead });
}
