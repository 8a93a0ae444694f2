// The embedded instance's ENCRYPTION_KEY for `npm start` and `npm run dev`: generated on the first start and kept
// beside the database (mode 600), so encrypted columns stay readable across restarts. Production uses a secret.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function localEncryptionKey(dataDir: string): string {
  const dir = dirname(dataDir);
  const file = join(dir, 'encryption-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
