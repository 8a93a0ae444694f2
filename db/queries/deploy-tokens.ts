// Deploy tokens: the owner's listing, the instance's, writes, and the lookup git's transport authenticates with.
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { deployTokens, namespaces, projects } from '../schema/index.ts';

export type TokenOwner = { kind: 'project' | 'group'; id: number };

const ofOwner = (o: TokenOwner | null) => (o === null ? undefined : o.kind === 'project' ? eq(deployTokens.projectId, o.id) : eq(deployTokens.groupId, o.id));

export const listDeployTokens = (db: Db, o: TokenOwner | null, limit: number, offset: number) =>
  db.select().from(deployTokens).where(ofOwner(o)).orderBy(asc(deployTokens.id)).limit(limit).offset(offset);

export async function countDeployTokens(db: Db, o: TokenOwner | null, limit: number) {
  const [row] = await db.select({ n: count() }).from(db.select({ id: deployTokens.id }).from(deployTokens).where(ofOwner(o)).limit(limit).as('c'));
  return row?.n ?? 0;
}

export async function insertDeployToken(db: Db, values: typeof deployTokens.$inferInsert) {
  const [row] = await db.insert(deployTokens).values(values).returning();
  return row!;
}

export async function deleteDeployToken(db: Db, o: TokenOwner, id: number) {
  const rows = await db
    .delete(deployTokens)
    .where(and(ofOwner(o), eq(deployTokens.id, id)))
    .returning({ id: deployTokens.id });
  return rows.length > 0;
}

/**
 * The unexpired deploy token with this digest when it reaches the project (its own, or its group's or an ancestor
 * group's): DeployToken#has_access_to? for git's transport.
 */
export async function findDeployTokenFor(db: Db, digest: string, projectId: number) {
  const [row] = await db
    .select()
    .from(deployTokens)
    .innerJoin(projects, eq(projects.id, projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(
      and(
        eq(deployTokens.tokenDigest, digest),
        or(isNull(deployTokens.expiresAt), sql`${deployTokens.expiresAt} > now()`),
        or(eq(deployTokens.projectId, projectId), sql`${deployTokens.groupId} = ANY(${namespaces.traversalIds})`),
      ),
    )
    .limit(1);
  return row?.deploy_tokens;
}
