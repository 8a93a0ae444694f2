// Users' GPG keys (GitLab 13.6's gpg_keys and gpg_key_subkeys): the armored public key as uploaded (stripped), what
// GitLab derives from it at save time (the primary key's id and fingerprint, each subkey's), and the user ids it
// carries. Commit signatures are verified when they are read (functions/gpg-keys/signatures.ts), so there is no
// gpg_signatures cache: a deleted or revoked key simply no longer verifies anything.
import { index, integer, jsonb, pgTable, serial, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { users } from './users.ts';

/** One user id of a key (Gitlab::Gpg.user_infos_from_key): its name and its email, downcased. */
export interface GpgUserInfo {
  name: string;
  email: string;
}

export const gpgKeys = pgTable(
  'gpg_keys',
  {
    id: serial('id').primaryKey(),
    /** A user's keys go with the user. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The armored key as uploaded, without surrounding whitespace (GpgKey#key=). */
    key: text('key').notNull(),
    /** The primary key's 64-bit key id, 16 upper-case hex digits (GitLab reads its sha_attribute upcased). */
    primaryKeyid: text('primary_keyid').notNull(),
    /** The primary key's fingerprint, upper-case hex. */
    fingerprint: text('fingerprint').notNull(),
    /** The key's user ids that carry a valid self-certification, in the key's order. */
    userInfos: jsonb('user_infos').$type<GpgUserInfo[]>().notNull(),
    ...timestamps,
  },
  // GpgKey validates fingerprint and primary_keyid unique over the whole table (whoever owns the other key).
  (t) => [
    unique('gpg_keys_fingerprint_key').on(t.fingerprint),
    unique('gpg_keys_primary_keyid_key').on(t.primaryKeyid),
    index('gpg_keys_user_id_idx').on(t.userId),
  ],
);

export const gpgKeySubkeys = pgTable(
  'gpg_key_subkeys',
  {
    id: serial('id').primaryKey(),
    gpgKeyId: integer('gpg_key_id')
      .notNull()
      .references(() => gpgKeys.id, { onDelete: 'cascade' }),
    /** 16 upper-case hex digits. */
    keyid: text('keyid').notNull(),
    /** Upper-case hex. */
    fingerprint: text('fingerprint').notNull(),
  },
  // GpgKeySubkey validates `fingerprint, keyid, uniqueness: true`.
  (t) => [
    unique('gpg_key_subkeys_fingerprint_key').on(t.fingerprint),
    unique('gpg_key_subkeys_keyid_key').on(t.keyid),
    index('gpg_key_subkeys_gpg_key_id_idx').on(t.gpgKeyId),
  ],
);

export type GpgKeyRow = typeof gpgKeys.$inferSelect;
export type GpgKeySubkeyRow = typeof gpgKeySubkeys.$inferSelect;
