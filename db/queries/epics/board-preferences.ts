// Board epic user preferences: whether a user collapsed an epic on a board.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { boardEpicUserPreferences } from '../../schema/index.ts';

/** The user's preference rows for these epics on the board. */
export async function boardEpicPreferences(db: Db, userId: number, boardId: number, epicIds: readonly number[]) {
  if (!epicIds.length) return [];
  return db
    .select()
    .from(boardEpicUserPreferences)
    .where(
      and(eq(boardEpicUserPreferences.userId, userId), eq(boardEpicUserPreferences.boardId, boardId), inArray(boardEpicUserPreferences.epicId, [...epicIds])),
    );
}

/** Sets `collapsed` for the user's epic on the board (one upsert). */
export async function upsertBoardEpicPreference(db: Db, values: { boardId: number; userId: number; epicId: number; collapsed: boolean }) {
  const [row] = await db
    .insert(boardEpicUserPreferences)
    .values(values)
    .onConflictDoUpdate({
      target: [boardEpicUserPreferences.boardId, boardEpicUserPreferences.userId, boardEpicUserPreferences.epicId],
      set: { collapsed: values.collapsed },
    })
    .returning();
  return row!;
}
