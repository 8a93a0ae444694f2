// Runner registration tokens (GitLab's project and group `runners_token` and the instance's registration token) are
// derived, not stored: an HMAC under ENCRYPTION_KEY of the scope and the project's or group's `runners_token_version`
// (bumped to rotate).
// A maintainer sees the same token on every read, registration recomputes it from the id the token carries, and a
// database dump holds nothing a runner could register with. No key configured: no token (registration is refused).
import { constantTimeEqual, hmacSha256Hex } from '../lib/crypto.ts';

const TOKEN_HEX = 20;

export type RegistrationScope = { kind: 'instance' } | { kind: 'project'; projectId: number } | { kind: 'group'; groupId: number };

async function secretPart(key: string, message: string) {
  return (await hmacSha256Hex(key, message)).slice(0, TOKEN_HEX);
}

/** The project's registration token: `<project id>-<20 hex>`; null without a key. */
export async function projectRunnersToken(key: string | undefined, projectId: number, version: number): Promise<string | null> {
  return key ? `${projectId}-${await secretPart(key, `ci-runners-token:project:${projectId}:${version}`)}` : null;
}

/** The group's registration token: `g<group id>-<20 hex>`; null without a key. */
export async function groupRunnersToken(key: string | undefined, groupId: number, version: number): Promise<string | null> {
  return key ? `g${groupId}-${await secretPart(key, `ci-runners-token:group:${groupId}:${version}`)}` : null;
}

/** The instance's registration token (for instance runners; printed by `npm start`). */
export async function instanceRunnersToken(key: string | undefined): Promise<string | null> {
  return key ? `i-${await secretPart(key, 'ci-runners-token:instance')}` : null;
}

/** What a presented registration token claims to be, before it is checked. */
export function tokenScope(token: string): RegistrationScope | null {
  if (/^i-[0-9a-f]{20}$/.test(token)) return { kind: 'instance' };
  const m = /^(g?)(\d{1,10})-[0-9a-f]{20}$/.exec(token);
  if (!m) return null;
  return m[1] ? { kind: 'group', groupId: Number(m[2]) } : { kind: 'project', projectId: Number(m[2]) };
}

/** Whether `token` is the registration token of `scope` (constant-time). */
export async function isRegistrationToken(key: string | undefined, token: string, scope: RegistrationScope, version = 0): Promise<boolean> {
  const expected =
    scope.kind === 'instance'
      ? await instanceRunnersToken(key)
      : scope.kind === 'project'
        ? await projectRunnersToken(key, scope.projectId, version)
        : await groupRunnersToken(key, scope.groupId, version);
  return expected !== null && (await constantTimeEqual(expected, token));
}
