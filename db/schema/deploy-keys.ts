// SSH keys (GitLab's `keys` table, which holds user keys and deploy keys alike, under one fingerprint rule)
// and the projects a deploy key is enabled in (`deploy_keys_projects`, with the per-project push right).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const keys = pgTable(
  'keys',
  {
    id: serial('id').primaryKey(),
    /** GitLab's STI column: 'DeployKey' (user keys, 'Key', would share the table and its fingerprint rule). */
    type: text('type').notNull().default('DeployKey'),
    title: text('title').notNull(),
    /** The key as sanitized on write (type, base64 blob, first word of the comment). */
    key: text('key').notNull(),
    /** MD5 of the blob, colon-separated hex (Gitlab::SSHPublicKey#fingerprint). */
    fingerprint: text('fingerprint').notNull(),
    /** SHA-256 of the blob, unpadded base64 without the `SHA256:` prefix (GitLab stores it so, as bytes). */
    fingerprintSha256: text('fingerprint_sha256').notNull(),
    /** Public deploy keys may be enabled by anyone who administers a project; none is made public by this API yet. */
    public: boolean('public').notNull().default(false),
    /**
     * A user key's owner; a deploy key's creator (kept as null when the user goes, while a user key goes with its
     * user: the trigger of migration 0025).
     */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** A user key's expiry (13.6's Key#expires_at); deploy keys never expire here. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    // Key validates `fingerprint, uniqueness: true` over the whole table: the database keeps it under concurrent creates.
    unique('keys_fingerprint_key').on(t.fingerprint),
    index('keys_fingerprint_sha256_idx').on(t.fingerprintSha256),
    index('keys_user_idx').on(t.userId, t.type),
    check('keys_type', sql`${t.type} IN ('Key', 'DeployKey')`),
    check('keys_title_length', sql`char_length(${t.title}) <= 255`),
    check('keys_key_length', sql`char_length(${t.key}) <= 5000`),
  ],
);

export const deployKeysProjects = pgTable(
  'deploy_keys_projects',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    deployKeyId: integer('deploy_key_id')
      .notNull()
      .references(() => keys.id, { onDelete: 'cascade' }),
    canPush: boolean('can_push').notNull().default(false),
    ...timestamps,
  },
  // DeployKeysProject validates deploy_key_id's uniqueness per project ("already exists in project").
  (t) => [
    unique('deploy_keys_projects_project_id_deploy_key_id_key').on(t.projectId, t.deployKeyId),
    index('deploy_keys_projects_deploy_key_id_idx').on(t.deployKeyId),
  ],
);

export type KeyRow = typeof keys.$inferSelect;
export type DeployKeysProjectRow = typeof deployKeysProjects.$inferSelect;
