// Mention to-dos on epics (GitLab 13.6 EE: TodoService#create_mention_todos for an epic's title/description and for
// notes on it): users newly mentioned who may read the epic (and the note) get one to-do each, pointing at the epic
// in its group. The candidates' levels are their memberships on the epic's group and its ancestors.
import type { Db } from '../../db/client.ts';
import { TODO_DIRECTLY_ADDRESSED, TODO_MENTIONED } from '../../db/queries/todos/issuables.ts';
import { usersWithProjectLevels } from '../issuables/lookups.ts';
import { epicTodosStatement } from '../../db/queries/todos.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { freshMentions, mentionReaders } from '../issuables/mention-todos.ts';
import type { SQL } from 'drizzle-orm';

export interface EpicMentionSource {
  /** The epic's group's traversal ids (its memberships decide the mentioned users' levels). */
  traversalIds: readonly number[];
  texts: ReadonlyArray<string | null>;
  before?: ReadonlyArray<string | null>;
  /** The policy's answer for a mentioned user with `accessLevel` on the epic's group. */
  mayRead: (user: UserRow, accessLevel: number) => boolean;
}

/** Who gets a mention to-do (the reads only): none when nothing new is mentioned. */
export async function epicMentionUsers(db: Db, s: EpicMentionSource) {
  const fresh = freshMentions(s.texts, s.before);
  if (!fresh.names.length) return [];
  // No project has id 0: the level is the group memberships' alone.
  const candidates = await usersWithProjectLevels(db, { id: 0, traversalIds: [...s.traversalIds] }, fresh.names);
  return mentionReaders(fresh, candidates, s.mayRead);
}

/** The mention to-dos on an epic, as statements for a batch (none when `mentions` is empty). */
export const epicMentionTodoStatements = (
  db: Db,
  target: { epicId: number; groupId: number },
  authorId: number,
  mentions: ReadonlyArray<{ userId: number; direct: boolean }>,
  noteId?: number | SQL<number>,
) =>
  mentions.length
    ? [
        epicTodosStatement(
          db,
          target,
          authorId,
          mentions.map((m) => ({ userId: m.userId, action: m.direct ? TODO_DIRECTLY_ADDRESSED : TODO_MENTIONED })),
          noteId,
        ),
      ]
    : [];

/**
 * TodoService#new_epic / #update_epic's mention to-dos, inside the epic's write: users newly mentioned in the
 * title or description who may read the epic.
 */
export async function createEpicMentionTodos(tx: Db, s: EpicMentionSource & { epicId: number; groupId: number; authorId: number }) {
  const mentions = await epicMentionUsers(tx, s);
  for (const statement of epicMentionTodoStatements(tx, { epicId: s.epicId, groupId: s.groupId }, s.authorId, mentions)) await statement;
}
