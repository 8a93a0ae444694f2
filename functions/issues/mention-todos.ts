// To-dos for @mentions (GitLab's TodoService#create_mention_todos), shared by issue descriptions and notes: users
// newly mentioned, who may read what mentions them, get one to-do each (`directly addressed` at the start of a line).
import type { Db } from '../../db/client.ts';
import { insertMentionTodos, usersWithProjectLevels } from '../../db/queries/issues.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { mentionedUsernames } from './mentions.ts';

export interface MentionSource {
  project: ProjectView;
  /** The issue the to-dos point at. */
  issue: { id: number; projectId: number };
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
  const now = mentionedUsernames(...s.texts);
  const old = s.before ? mentionedUsernames(...s.before).all : new Set<string>();
  const fresh = [...now.all].filter((u) => !old.has(u));
  if (!fresh.length) return;
  const traversalIds = s.project.namespace.kind === 'group' ? s.project.namespace.traversalIds : [];
  const candidates = await usersWithProjectLevels(tx, { id: s.project.project.id, traversalIds }, fresh);
  const readers = candidates.filter(({ user, accessLevel }) => s.mayRead(user, accessLevel));
  await insertMentionTodos(
    tx,
    s.issue,
    s.authorId,
    readers.map(({ user }) => ({ userId: user.id, direct: now.direct.has(user.username.toLowerCase()) })),
    s.noteId,
  );
}
