// To-dos for @mentions (GitLab's TodoService#create_mention_todos), shared by issue and merge request titles and
// descriptions and by notes: users newly mentioned, who may read what mentions them, get one to-do each (`directly
// addressed` at the start of a line).
import type { Db } from '../../db/client.ts';
import { insertMentionTodos, type TodoTarget } from '../todos/statements.ts';
import { usersWithProjectLevels } from './lookups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { mentionedUsernames } from './mentions.ts';

export interface MentionSource {
  project: ProjectView;
  /** The issue (or, with `type: 'MergeRequest'`, the merge request) the to-dos point at. */
  issue: TodoTarget;
  authorId: number;
  /** The texts that mention (title and description, or a note's body), and their previous version on an edit. */
  texts: ReadonlyArray<string | null>;
  before?: ReadonlyArray<string | null>;
  /** Set when the mention is in a note: the to-do links it and shows its body. */
  noteId?: number;
  /** The policy's answer for a mentioned user with `accessLevel` on the project. */
  mayRead: (user: UserRow, accessLevel: number) => boolean;
}

export async function createMentionTodos(tx: Db, s: MentionSource) {
  await insertMentionTodos(tx, s.issue, s.authorId, await mentionTodoUsers(tx, s), s.noteId);
}

/**
 * The reads of createMentionTodos alone (who gets a to-do, and whether directly addressed), for a write that then
 * inserts them in its batch (insertMentionTodosStatement); no statement when nothing new is mentioned.
 */
export async function mentionTodoUsers(db: Db, s: Omit<MentionSource, 'issue' | 'authorId' | 'noteId'>) {
  const fresh = freshMentions(s.texts, s.before);
  if (!fresh.names.length) return [];
  const traversalIds = s.project.namespace.kind === 'group' ? s.project.namespace.traversalIds : [];
  return mentionReaders(fresh, await usersWithProjectLevels(db, { id: s.project.project.id, traversalIds }, fresh.names), s.mayRead);
}

/** The usernames newly mentioned (lower case), and which of all mentioned are directly addressed. */
export function freshMentions(texts: MentionSource['texts'], before?: MentionSource['before']) {
  const now = mentionedUsernames(...texts);
  const old = before ? mentionedUsernames(...before).all : new Set<string>();
  return { names: [...now.all].filter((u) => !old.has(u)), direct: now.direct };
}

/** Of the candidates read for freshMentions' names (usersWithProjectLevels), who gets a to-do and how. */
export function mentionReaders(
  fresh: ReturnType<typeof freshMentions>,
  candidates: ReadonlyArray<{ user: UserRow; accessLevel: number }>,
  mayRead: MentionSource['mayRead'],
) {
  return candidates
    .filter(({ user, accessLevel }) => mayRead(user, accessLevel))
    .map(({ user }) => ({ userId: user.id, direct: fresh.direct.has(user.username.toLowerCase()) }));
}
