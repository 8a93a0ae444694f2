// Test data with unique names, written straight to the database (no HTTP, no password hashing).
import { insertPersonalAccessToken } from '../../db/queries/tokens.ts';
import { insertUserWithNamespace } from '../../db/queries/users.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { randomToken, sha256Hex } from '../../functions/lib/crypto.ts';
import { testDb } from '../helpers/app.ts';

let counter = 0;
/** A name unique across test files and runs sharing one database. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface UserOptions {
  admin?: boolean;
  state?: 'active' | 'blocked';
  external?: boolean;
  privateProfile?: boolean;
  username?: string;
  passwordHash?: string | null;
  /** null: the email is not confirmed. */
  confirmedAt?: Date | null;
}

/** A user with a personal namespace and an `api` token. */
export async function createUser(options: UserOptions = {}): Promise<{ user: UserRow; token: string }> {
  const username = options.username ?? unique('user');
  const user = await testDb().transaction((tx) =>
    insertUserWithNamespace(tx, {
      username,
      name: `User ${username}`,
      email: `${username}@example.com`,
      admin: options.admin ?? false,
      state: options.state ?? 'active',
      external: options.external ?? false,
      privateProfile: options.privateProfile ?? false,
      passwordHash: options.passwordHash ?? null,
      confirmedAt: options.confirmedAt === undefined ? new Date() : options.confirmedAt,
    }),
  );
  const token = await createToken(user, ['api']);
  return { user, token };
}

export async function createToken(user: UserRow, scopes: string[], extra: { expiresAt?: string; revoked?: boolean } = {}): Promise<string> {
  const token = randomToken('glpat-');
  await insertPersonalAccessToken(testDb().db, {
    userId: user.id,
    name: unique('token'),
    scopes,
    tokenDigest: await sha256Hex(token),
    expiresAt: extra.expiresAt ?? null,
    revoked: extra.revoked ?? false,
  });
  return token;
}

export const createAdmin = () => createUser({ admin: true });
