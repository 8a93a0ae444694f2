// Deploy keys (GitLab's DeployKey rows of `keys`) and the projects they are enabled in (DeployKeysProject). A
// project's keys are listed by link id, the admin listing by key id (GitLab's unordered `paginate(...)`, which
// PostgreSQL answers in insertion order).
import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { deployKeysProjects, keys, namespaces, projects, users, type DeployKeysProjectRow, type KeyRow } from '../schema/index.ts';
import { AccessLevel, isAdmin, projectAccessLevelSql, type Viewer } from './lib/access.ts';
import { rows } from './lib/raw.ts';

/** A project's link to a deploy key, with the key. */
export interface DeployKeyLink {
  link: DeployKeysProjectRow;
  key: KeyRow;
}

const isDeployKey = eq(keys.type, 'DeployKey');

// ---- The admin listing ----

export const listDeployKeys = (db: Db, limit: number, offset: number): Promise<KeyRow[]> =>
  db.select().from(keys).where(isDeployKey).orderBy(asc(keys.id)).limit(limit).offset(offset);

export async function countDeployKeys(db: Db, limit: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(db.select({ id: keys.id }).from(keys).where(isDeployKey).limit(limit).as('capped'));
  return row?.n ?? 0;
}

// ---- A project's keys ----

const linkSelect = (db: Db) =>
  db.select({ link: deployKeysProjects, key: keys }).from(deployKeysProjects).innerJoin(keys, eq(keys.id, deployKeysProjects.deployKeyId));

export const listProjectDeployKeys = (db: Db, projectId: number, limit: number, offset: number): Promise<DeployKeyLink[]> =>
  linkSelect(db).where(eq(deployKeysProjects.projectId, projectId)).orderBy(asc(deployKeysProjects.id)).limit(limit).offset(offset);

export async function countProjectDeployKeys(db: Db, projectId: number, limit: number): Promise<number> {
  const capped = db.select({ id: deployKeysProjects.id }).from(deployKeysProjects).where(eq(deployKeysProjects.projectId, projectId)).limit(limit);
  const [row] = await db.select({ n: count() }).from(capped.as('capped'));
  return row?.n ?? 0;
}

async function findLink(db: Db, projectId: number, where: SQL): Promise<DeployKeyLink | undefined> {
  const [row] = await linkSelect(db).where(and(eq(deployKeysProjects.projectId, projectId), where));
  return row;
}

/** The project's link to the key with this id. */
export const findProjectDeployKey = (db: Db, projectId: number, keyId: number) => findLink(db, projectId, eq(keys.id, keyId));

/** The project's link to a key with exactly this text (GitLab's `deploy_keys_projects.joins(:deploy_key).find_by(keys: { key: })`). */
export const findProjectDeployKeyByText = (db: Db, projectId: number, text: string) => findLink(db, projectId, eq(keys.key, text));

// ---- Keys the actor may enable elsewhere ----

/**
 * User#accessible_deploy_keys: public deploy keys, and those enabled in a live project the actor maintains (see
 * the service for why maintainers); administrators reach every deploy key.
 */
function accessibleSql(actor: Viewer): SQL | undefined {
  if (isAdmin(actor)) return undefined;
  if (!actor.user) return sql`false`;
  const heldInMaintainedProject = sql`EXISTS (
    SELECT 1 FROM ${deployKeysProjects}
    JOIN ${projects} ON ${projects.id} = ${deployKeysProjects.projectId}
    JOIN ${namespaces} ON ${namespaces.id} = ${projects.namespaceId}
    WHERE ${deployKeysProjects.deployKeyId} = ${keys.id} AND ${projects.deletedAt} IS NULL
      AND ${projectAccessLevelSql(actor)} >= ${AccessLevel.MAINTAINER})`;
  return or(eq(keys.public, true), heldInMaintainedProject);
}

async function findAccessible(db: Db, actor: Viewer, where: SQL): Promise<KeyRow | undefined> {
  const [row] = await db
    .select()
    .from(keys)
    .where(and(isDeployKey, where, accessibleSql(actor)))
    .orderBy(asc(keys.id))
    .limit(1);
  return row;
}

export const findAccessibleDeployKey = (db: Db, actor: Viewer, id: number) => findAccessible(db, actor, eq(keys.id, id));
export const findAccessibleDeployKeyByText = (db: Db, actor: Viewer, text: string) => findAccessible(db, actor, eq(keys.key, text));

/** Whether any key (user or deploy) has this MD5 fingerprint: Key's uniqueness rule. */
export async function fingerprintTaken(db: Db, fingerprint: string): Promise<boolean> {
  const [row] = await db.select({ id: keys.id }).from(keys).where(eq(keys.fingerprint, fingerprint)).limit(1);
  return row !== undefined;
}

// ---- Writes ----

export interface NewDeployKey {
  title: string;
  key: string;
  fingerprint: string;
  fingerprintSha256: string;
  userId: number;
}

/**
 * A new key and its link to the project, in one statement (both or neither). Undefined when the fingerprint is
 * taken: ON CONFLICT waits for a concurrent insert of the same key to commit, so the caller then sees its link.
 */
export async function insertDeployKeyWithLink(db: Db, projectId: number, canPush: boolean, k: NewDeployKey): Promise<number | undefined> {
  const [row] = await rows<{ deploy_key_id: number }>(
    db,
    sql`WITH k AS (
      INSERT INTO ${keys} (type, title, key, fingerprint, fingerprint_sha256, user_id)
      VALUES ('DeployKey', ${k.title}, ${k.key}, ${k.fingerprint}, ${k.fingerprintSha256}, ${k.userId})
      ON CONFLICT ON CONSTRAINT keys_fingerprint_key DO NOTHING
      RETURNING id)
    INSERT INTO ${deployKeysProjects} (project_id, deploy_key_id, can_push)
    SELECT ${projectId}, k.id, ${canPush} FROM k
    RETURNING deploy_key_id`,
  );
  return row ? Number(row.deploy_key_id) : undefined;
}

/** Enables the key in the project (nothing when it already is: the unique link decides, race-free). */
export async function insertLink(db: Db, projectId: number, keyId: number, canPush: boolean): Promise<void> {
  await db
    .insert(deployKeysProjects)
    .values({ projectId, deployKeyId: keyId, canPush })
    .onConflictDoNothing({ target: [deployKeysProjects.projectId, deployKeysProjects.deployKeyId] });
}

/** Changes a link's push right and its key's title, in one statement. */
export async function updateLinkAndKey(
  db: Db,
  link: DeployKeysProjectRow,
  change: { canPush?: boolean | undefined; title?: string | undefined },
): Promise<void> {
  await rows(
    db,
    sql`WITH l AS (
      UPDATE ${deployKeysProjects} SET can_push = ${change.canPush ?? link.canPush}, updated_at = now() WHERE id = ${link.id} RETURNING deploy_key_id)
    UPDATE ${keys} SET title = COALESCE(${change.title ?? null}::text, title), updated_at = now()
    WHERE id = (SELECT deploy_key_id FROM l)
    RETURNING id`,
  );
}

/**
 * Removes the key from the project, and the key itself when it is private and no other project uses it
 * (DeployKeysProject#destroy_orphaned_deploy_key). False when the project did not have the key. The statement
 * sees the link it deletes, hence the other-project test.
 */
export async function deleteLink(db: Db, projectId: number, keyId: number): Promise<boolean> {
  const [row] = await rows<{ links: number | string }>(
    db,
    sql`WITH l AS (
      DELETE FROM ${deployKeysProjects} WHERE project_id = ${projectId} AND deploy_key_id = ${keyId} RETURNING deploy_key_id),
    k AS (
      DELETE FROM ${keys} WHERE id IN (SELECT deploy_key_id FROM l) AND NOT public
        AND NOT EXISTS (SELECT 1 FROM ${deployKeysProjects} o WHERE o.deploy_key_id = ${keys.id} AND o.project_id <> ${projectId})
      RETURNING id)
    SELECT (SELECT count(*) FROM l) AS links, (SELECT count(*) FROM k) AS keys`,
  );
  return Number(row?.links ?? 0) > 0;
}

// ---- User keys (type 'Key') ----

const ofUser = (userId: number) => and(eq(keys.type, 'Key'), eq(keys.userId, userId));

export const listUserKeys = (db: Db, userId: number, limit: number, offset: number): Promise<KeyRow[]> =>
  db.select().from(keys).where(ofUser(userId)).orderBy(asc(keys.id)).limit(limit).offset(offset);

export async function countUserKeys(db: Db, userId: number, limit: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(db.select({ id: keys.id }).from(keys).where(ofUser(userId)).limit(limit).as('capped'));
  return row?.n ?? 0;
}

export async function findUserKey(db: Db, userId: number, keyId: number): Promise<KeyRow | undefined> {
  const [row] = await db
    .select()
    .from(keys)
    .where(and(ofUser(userId), eq(keys.id, keyId)));
  return row;
}

/** Inserts a user key; undefined when its fingerprint is taken (by any key, deploy keys included). */
export async function insertUserKey(db: Db, k: NewDeployKey & { userId: number; expiresAt: Date | null }): Promise<KeyRow | undefined> {
  const [row] = await db
    .insert(keys)
    .values({ type: 'Key', ...k })
    .onConflictDoNothing({ target: keys.fingerprint })
    .returning();
  return row;
}

export async function deleteUserKey(db: Db, userId: number, keyId: number): Promise<boolean> {
  const deleted = await db
    .delete(keys)
    .where(and(ofUser(userId), eq(keys.id, keyId)))
    .returning({ id: keys.id });
  return deleted.length > 0;
}

/** Any key (user or deploy) by id or by fingerprint (MD5 `aa:bb:...` or SHA-256 base64), with its user. */
export async function findKeyWithUser(db: Db, where: { id: number } | { md5: string } | { sha256: string }) {
  const [row] = await db
    .select({ key: keys, user: users })
    .from(keys)
    .leftJoin(users, eq(users.id, keys.userId))
    .where('id' in where ? eq(keys.id, where.id) : 'md5' in where ? eq(keys.fingerprint, where.md5) : eq(keys.fingerprintSha256, where.sha256))
    .orderBy(asc(keys.id))
    .limit(1);
  return row;
}

/** A deploy key's project links (DeployKeyWithUser's deploy_keys_projects). */
export const deployKeyLinks = (db: Db, keyId: number) =>
  db.select().from(deployKeysProjects).where(eq(deployKeysProjects.deployKeyId, keyId)).orderBy(asc(deployKeysProjects.id));
