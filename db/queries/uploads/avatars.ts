import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { avatars, namespaces, projects, users, type AvatarRow } from '../../schema/index.ts';

/** Whose avatar: a user, a group (its namespace id) or a project. */
export interface AvatarOwner {
  kind: 'user' | 'group' | 'project';
  id: number;
}

export type NewAvatar = Pick<AvatarRow, 'filename' | 'contentType' | 'size' | 'checksum' | 'data'>;

const ownerColumn = { user: avatars.userId, group: avatars.namespaceId, project: avatars.projectId } as const;
const ownerKey = { user: 'userId', group: 'namespaceId', project: 'projectId' } as const;

/**
 * Replaces the owner's avatar and points the owner's row at it (`avatar_url`, and `updated_at` as GitLab's save
 * does), in the caller's transaction. A user's personal namespace shows the user's avatar (GitLab's Namespace
 * delegates avatar_url to its owner), so it carries the URL too.
 */
export async function saveAvatar(tx: Db, owner: AvatarOwner, file: NewAvatar, avatarUrl: string) {
  await tx
    .insert(avatars)
    .values({ [ownerKey[owner.kind]]: owner.id, ...file })
    .onConflictDoUpdate({ target: ownerColumn[owner.kind], set: { ...file, createdAt: sql`now()` } });
  const touched = { avatarUrl, updatedAt: sql`now()` };
  if (owner.kind === 'user') {
    await tx.update(users).set(touched).where(eq(users.id, owner.id));
    await tx
      .update(namespaces)
      .set(touched)
      .where(and(eq(namespaces.ownerId, owner.id), eq(namespaces.kind, 'user')));
  } else if (owner.kind === 'group') {
    await tx.update(namespaces).set(touched).where(eq(namespaces.id, owner.id));
  } else {
    await tx.update(projects).set(touched).where(eq(projects.id, owner.id));
  }
}

/** The owner's avatar (bytes included), if one was uploaded. */
export async function findAvatar(db: Db, owner: AvatarOwner): Promise<AvatarRow | undefined> {
  const [row] = await db.select().from(avatars).where(eq(ownerColumn[owner.kind], owner.id)).limit(1);
  return row;
}
