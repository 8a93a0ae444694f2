// First start of a fresh instance: an administrator `root` with a random password and an `api` token, returned in
// plaintext once so the entry point can print them. Nothing happens when any user exists.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { insertPersonalAccessToken } from '../tokens/statements.ts';
import { insertUserWithNamespace } from '../../db/queries/users.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword, randomToken, sha256Hex } from '../lib/crypto.ts';

export async function bootstrapRoot(transaction: <T>(fn: (tx: Db) => Promise<T>) => Promise<T>) {
  const password = randomToken().slice(0, 20);
  const token = randomToken('glpat-');
  const [passwordHash, tokenDigest] = await Promise.all([hashPassword(password), sha256Hex(token)]);
  return transaction(async (tx) => {
    // Serialize concurrent first starts on the same database.
    await tx.execute(sql`LOCK TABLE users IN EXCLUSIVE MODE`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) return null;
    const root = await insertUserWithNamespace(tx, {
      username: 'root',
      name: 'Administrator',
      email: 'admin@example.com',
      admin: true,
      passwordHash,
      confirmedAt: new Date(),
    });
    await insertPersonalAccessToken(tx, { userId: root.id, name: 'bootstrap', scopes: ['api'], tokenDigest });
    return { username: root.username, password, token };
  });
}
