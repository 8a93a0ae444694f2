// Deploy key inputs (lib/api/deploy_keys.rb), the Key model's validations in GitLab 13.6's words, and the entities
// (Entities::DeployKey < SSHKey: id, title, key, created_at, expires_at; Entities::DeployKeysProject: the key merged
// with the link's can_push).
import * as z from 'zod/mini';
import type { KeyRow } from '../../db/schema/index.ts';
import type { FieldErrors } from '../lib/errors.ts';
import { iso } from '../lib/format.ts';
import { paginationParams } from '../lib/pagination.ts';
import { atLeastOneOf, bool, dateTime, pathId, schema, str, text } from '../lib/validate.ts';
import { SUPPORTED_TYPES, type PublicKeyFacts } from './ssh-key.ts';

export const TITLE_MAX = 255;
export const KEY_MAX = 5000;

export const ListInput = schema(() => z.object({ ...paginationParams() }));

export const DeployKeyPath = schema(() => z.object({ key_id: pathId() }));

/** Title and key lengths are the model's (its messages, under `deploy_key.`); these only bound the request. */
export const CreateInput = schema(() =>
  z.object({
    key: text(100_000),
    title: str(10_000),
    can_push: z.optional(bool()),
  }),
);

export const UpdateInput = schema(() => {
  const fields = { title: z.optional(str(10_000)), can_push: z.optional(bool()) };
  return z.object(fields).check(atLeastOneOf(Object.keys(fields)));
});

/** Key's format rule: `/\A(ssh|ecdsa)-.*\Z/` (Ruby's `.` stops at a newline). */
const KEY_FORMAT = /^(?:ssh|ecdsa)-[^\n]*$/;

/** ApplicationSetting#allowed_key_types as a sentence (every type is allowed by default). */
const ALLOWED_TYPES = SUPPORTED_TYPES.map((t) => t.toUpperCase());
const FORBIDDEN_TYPE = `type is forbidden. Must be ${ALLOWED_TYPES.slice(0, -1).join(', ')}, or ${ALLOWED_TYPES.at(-1)}`;

/**
 * The Key model's errors for a new key, in Rails' order (title, key, fingerprint, then key_meets_restrictions, which
 * adds to `key` after the fingerprint's presence rule), named as a DeployKeysProject's nested errors are
 * (`deploy_key.<attribute>`), or with `prefix` '' as a user key's own. `key` is the sanitized text; `facts` what it parsed to (null when it did not);
 * `fingerprintTaken` the uniqueness rule's answer.
 */
export function deployKeyErrors(
  input: { title: string; key: string; facts: PublicKeyFacts | null; fingerprintTaken: boolean },
  prefix = 'deploy_key.',
): FieldErrors {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, message: string) => (errors[`${prefix}${attribute}`] ??= []).push(message);
  titleErrors(input.title).forEach((m) => add('title', m));
  if (!input.key.trim()) add('key', "can't be blank");
  if (input.key.length > KEY_MAX) add('key', `is too long (maximum is ${KEY_MAX} characters)`);
  if (!KEY_FORMAT.test(input.key)) add('key', 'is invalid');
  if (input.fingerprintTaken) add('fingerprint', 'has already been taken');
  if (!input.facts) {
    add('fingerprint', 'cannot be generated');
    // An unreadable key has no type, and ApplicationSetting#key_restriction_for(nil) answers "forbidden".
    add('key', FORBIDDEN_TYPE);
  }
  return errors;
}

/** The title's errors (presence, at most 255 characters). */
export function titleErrors(title: string): string[] {
  const messages: string[] = [];
  if (!title.trim()) messages.push("can't be blank");
  if (title.length > TITLE_MAX) messages.push(`is too long (maximum is ${TITLE_MAX} characters)`);
  return messages;
}

/** Entities::DeployKey. Deploy keys never expire in 13.6 (the API sets no `expires_at`). */
export const toDeployKey = (key: KeyRow) => ({
  id: key.id,
  title: key.title,
  key: key.key,
  created_at: iso(key.createdAt),
  expires_at: null,
});

/** Entities::DeployKeysProject: the key, merged with the project's push right. */
export const toDeployKeysProject = ({ key, canPush }: { key: KeyRow; canPush: boolean }) => ({ ...toDeployKey(key), can_push: canPush });

/** POST /user/keys and /users/:id/keys. */
export const CreateUserKeyInput = schema(() =>
  z.object({
    title: str(10_000),
    key: text(100_000),
    expires_at: z.optional(z.nullable(dateTime())),
  }),
);

export const KeyPath = schema(() => z.object({ key_id: pathId() }));

/** GET /keys?fingerprint=: MD5 (`aa:bb:...`) or SHA-256 (`SHA256:<base64>`), as KeysFinder reads them. */
export const KeysByFingerprintInput = schema(() => z.object({ fingerprint: str(200) }));

/** Entities::SSHKey */
export const toSshKey = (key: KeyRow) => ({
  id: key.id,
  title: key.title,
  key: key.key,
  created_at: iso(key.createdAt),
  expires_at: key.expiresAt ? iso(key.expiresAt) : null,
});
