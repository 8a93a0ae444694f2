// Users' GPG keys (gpg_keys, gpg_key_subkeys) and the one read commit signatures need: the stored key a signature's
// issuer names (primary key or subkey), with its owner's emails. A user's keys are listed by id (GitLab's `paginate`
// adds `order(:id)` to the unordered `user.gpg_keys`).
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { emails, gpgKeySubkeys, gpgKeys, users, type GpgKeyRow, type GpgUserInfo } from '../schema/index.ts';
import { rows } from './lib/raw.ts';

const ofUser = (userId: number) => eq(gpgKeys.userId, userId);

export const listUserGpgKeys = (db: Db, userId: number, limit: number, offset: number): Promise<GpgKeyRow[]> =>
  db.select().from(gpgKeys).where(ofUser(userId)).orderBy(asc(gpgKeys.id)).limit(limit).offset(offset);

export async function countUserGpgKeys(db: Db, userId: number, limit: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(db.select({ id: gpgKeys.id }).from(gpgKeys).where(ofUser(userId)).limit(limit).as('capped'));
  return row?.n ?? 0;
}

export async function findUserGpgKey(db: Db, userId: number, keyId: number): Promise<GpgKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(gpgKeys)
    .where(and(ofUser(userId), eq(gpgKeys.id, keyId)));
  return row;
}

export interface NewGpgKey {
  userId: number;
  key: string;
  primaryKeyid: string;
  fingerprint: string;
  userInfos: GpgUserInfo[];
  subkeys: ReadonlyArray<{ keyid: string; fingerprint: string }>;
}

interface GpgKeySqlRow {
  id: number;
  user_id: number;
  key: string;
  primary_keyid: string;
  fingerprint: string;
  user_infos: GpgUserInfo[] | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toGpgKeyRow = (r: GpgKeySqlRow): GpgKeyRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  key: r.key,
  primaryKeyid: r.primary_keyid,
  fingerprint: r.fingerprint,
  userInfos: typeof r.user_infos === 'string' ? (JSON.parse(r.user_infos) as GpgUserInfo[]) : r.user_infos,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/**
 * The key and its subkeys in one statement (GpgKey#save with its after_create generate_subkeys, both or neither).
 * Undefined when the key's fingerprint or primary key id is taken: ON CONFLICT waits for a concurrent insert of the
 * same key to commit. A subkey another key already has raises the subkeys' unique violation, and nothing is written.
 */
export async function insertGpgKey(db: Db, k: NewGpgKey): Promise<GpgKeyRow | undefined> {
  const [row] = await rows<GpgKeySqlRow>(
    db,
    sql`WITH k AS (
      INSERT INTO ${gpgKeys} (user_id, key, primary_keyid, fingerprint, user_infos)
      VALUES (${k.userId}, ${k.key}, ${k.primaryKeyid}, ${k.fingerprint}, ${JSON.stringify(k.userInfos)}::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING *),
    s AS (
      INSERT INTO ${gpgKeySubkeys} (gpg_key_id, keyid, fingerprint)
      SELECT k.id, sub.keyid, sub.fingerprint FROM k,
        jsonb_to_recordset(${JSON.stringify(k.subkeys)}::jsonb) AS sub(keyid text, fingerprint text)
      RETURNING id)
    SELECT k.*, (SELECT count(*) FROM s) AS subkeys FROM k`,
  );
  return row && toGpgKeyRow(row);
}

/** Which of GpgKey's uniqueness rules another key breaks: the same text, fingerprint, primary key id. */
export async function gpgKeyTaken(db: Db, k: Pick<NewGpgKey, 'key' | 'fingerprint' | 'primaryKeyid'>) {
  const found = await db
    .select({ sameKey: sql<boolean>`${gpgKeys.key} = ${k.key}`, fingerprint: gpgKeys.fingerprint, primaryKeyid: gpgKeys.primaryKeyid })
    .from(gpgKeys)
    .where(sql`${gpgKeys.fingerprint} = ${k.fingerprint} OR ${gpgKeys.primaryKeyid} = ${k.primaryKeyid}`);
  return {
    key: found.some((r) => r.sameKey),
    fingerprint: found.some((r) => r.fingerprint === k.fingerprint),
    primaryKeyid: found.some((r) => r.primaryKeyid === k.primaryKeyid),
  };
}

/** Deletes the user's key (its subkeys go with it); false when the user has no such key. */
export async function deleteUserGpgKey(db: Db, userId: number, keyId: number): Promise<boolean> {
  const deleted = await db
    .delete(gpgKeys)
    .where(and(ofUser(userId), eq(gpgKeys.id, keyId)))
    .returning({ id: gpgKeys.id });
  return deleted.length > 0;
}

/** The stored key a signature names, with what 13.6's verification reads of its owner. */
export interface SigningKey {
  key: GpgKeyRow;
  /** The subkey that matched (GpgKeySubkey), or null for the primary key. */
  subkeyId: number | null;
  /** The matched key's id: the primary key's or the subkey's (GpgKey#keyid, GpgKeySubkey#keyid). */
  keyid: string;
  owner: { email: string; confirmed: boolean };
  /** The owner's secondary emails, confirmed or not, oldest first. */
  emails: Array<{ email: string; confirmed: boolean }>;
}

/**
 * Gitlab::Gpg::Commit#find_gpg_key: by fingerprint when the signature names one (GpgKey, then GpgKeySubkey), else by
 * the 64-bit key id (primary_keyid, then a subkey's keyid). One statement.
 */
export async function findSigningKey(db: Db, by: { fingerprint: string } | { keyid: string }): Promise<SigningKey | undefined> {
  const [keyColumn, subkeyColumn, value] =
    'fingerprint' in by ? [sql`fingerprint`, sql`fingerprint`, by.fingerprint] : [sql`primary_keyid`, sql`keyid`, by.keyid];
  const [row] = await rows<GpgKeySqlRow & { subkey_id: number | null; matched_keyid: string; owner_email: string; owner_confirmed: boolean; emails: unknown }>(
    db,
    sql`WITH m AS (
        SELECT * FROM (
          SELECT g.id AS gpg_key_id, NULL::int AS subkey_id, g.primary_keyid AS matched_keyid, 0 AS rank FROM ${gpgKeys} g WHERE g.${keyColumn} = ${value}
          UNION ALL
          SELECT s.gpg_key_id, s.id, s.keyid, 1 FROM ${gpgKeySubkeys} s WHERE s.${subkeyColumn} = ${value}
        ) c ORDER BY rank LIMIT 1)
      SELECT g.*, m.subkey_id, m.matched_keyid, u.email AS owner_email, u.confirmed_at IS NOT NULL AS owner_confirmed,
        COALESCE((SELECT json_agg(json_build_object('email', e.email, 'confirmed', e.confirmed_at IS NOT NULL) ORDER BY e.id)
          FROM ${emails} e WHERE e.user_id = g.user_id), '[]'::json) AS emails
      FROM m JOIN ${gpgKeys} g ON g.id = m.gpg_key_id JOIN ${users} u ON u.id = g.user_id`,
  );
  if (!row) return undefined;
  const list = (typeof row.emails === 'string' ? JSON.parse(row.emails) : row.emails) as Array<{ email: string; confirmed: boolean }>;
  return {
    key: toGpgKeyRow(row),
    subkeyId: row.subkey_id === null ? null : Number(row.subkey_id),
    keyid: row.matched_keyid,
    owner: { email: row.owner_email, confirmed: row.owner_confirmed === true || (row.owner_confirmed as unknown) === 't' },
    emails: list,
  };
}
