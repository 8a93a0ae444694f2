// Custom attributes: one owner column per kind; keys unique per owner (ordered by key, as GitLab lists them).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { customAttributes } from '../schema/index.ts';

export type AttributeOwner = { kind: 'user' | 'group' | 'project'; id: number };

const column = { user: customAttributes.userId, group: customAttributes.namespaceId, project: customAttributes.projectId } as const;
const key = { user: 'userId', group: 'namespaceId', project: 'projectId' } as const;

export const listAttributes = (db: Db, o: AttributeOwner) =>
  db
    .select({ key: customAttributes.key, value: customAttributes.value })
    .from(customAttributes)
    .where(eq(column[o.kind], o.id))
    .orderBy(asc(customAttributes.key));

export async function findAttribute(db: Db, o: AttributeOwner, name: string) {
  const [row] = await db
    .select({ key: customAttributes.key, value: customAttributes.value })
    .from(customAttributes)
    .where(and(eq(column[o.kind], o.id), eq(customAttributes.key, name)));
  return row;
}

/** Sets the value (creating the attribute), in one statement. */
export async function upsertAttribute(db: Db, o: AttributeOwner, name: string, value: string) {
  const [row] = await db
    .insert(customAttributes)
    .values({ [key[o.kind]]: o.id, key: name, value })
    .onConflictDoUpdate({ target: [column[o.kind], customAttributes.key], set: { value, updatedAt: sql`now()` } })
    .returning({ key: customAttributes.key, value: customAttributes.value });
  return row!;
}

export async function deleteAttribute(db: Db, o: AttributeOwner, name: string) {
  const rows = await db
    .delete(customAttributes)
    .where(and(eq(column[o.kind], o.id), eq(customAttributes.key, name)))
    .returning({ id: customAttributes.id });
  return rows.length > 0;
}
