// Who may fetch and who may push over git's HTTP transport, as GitLab 13.6 answers: every credential kind (personal
// access tokens of each scope, an OAuth token with the oauth2 login, the password, none, a wrong one) for every
// role (none, guest, reporter, developer, maintainer) on a public, an internal and a private project, at the
// discovery request git makes first (`info/refs`), where every refusal is decided. The expected answers are
// GitLab's rules written as a table, not read from the code under test.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { IP_ATTEMPT_LIMIT } from '../../functions/lib/rate-limit.ts';
import { oauthAccessTokens } from '../../db/schema/index.ts';
import { hashPassword, randomToken, sha256Hex } from '../../functions/lib/crypto.ts';
import { serveTestApp, testDb } from '../helpers/app.ts';
import { hasGit } from '../helpers/git-dir.ts';
import { addMember } from '../factories/groups.ts';
import { createApplication } from '../factories/oauth.ts';
import { createProject } from '../factories/projects.ts';
import { createToken, createUser } from '../factories/users.ts';

const VISIBILITIES = ['public', 'internal', 'private'] as const;
const ROLES = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const;
const CREDENTIALS = ['pat:api', 'pat:read_api', 'pat:read_repository', 'pat:write_repository', 'pat:read_user', 'oauth:api', 'password'] as const;
type Visibility = (typeof VISIBILITIES)[number];
type Role = keyof typeof ROLES;
type Credential = (typeof CREDENTIALS)[number];
type Answer = [status: number, body: string];

const OK: Answer = [200, ''];
const CHALLENGE: Answer = [401, 'HTTP Basic: Access denied\n'];
const NOT_FOUND: Answer = [404, 'The project you were looking for could not be found.\n'];
const PASSWORD = 'correct horse battery staple';

/**
 * Gitlab::GitAccess#check for a signed-in user, in its order: the credential's abilities (a token's scopes), the
 * project (404 when it cannot be read), then the role's abilities.
 */
function expected(op: 'fetch' | 'push', visibility: Visibility, role: Role, credential: Credential): Answer {
  const level = ROLES[role];
  const scope = credential.split(':')[1];
  if (op === 'fetch' && scope === 'read_user') return [403, 'You are not allowed to download code.\n'];
  if (op === 'push' && scope !== undefined && scope !== 'api' && scope !== 'write_repository') return [403, 'You are not allowed to upload code.\n'];
  if (visibility === 'private' && level < ROLES.guest) return NOT_FOUND;
  if (op === 'fetch') {
    // Guests read the code of public and internal projects, not of private ones.
    if (visibility === 'private' && level < ROLES.reporter) return [403, 'You are not allowed to download code from this project.\n'];
    return OK;
  }
  if (level < ROLES.developer) return [403, 'You are not allowed to push code to this project.\n'];
  return OK;
}

describe.skipIf(!hasGit())('git over HTTP: authorization (every credential, role and visibility)', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  const projects = {} as Record<Visibility, { path_with_namespace: string }>;
  const logins = {} as Record<Role, Record<Credential, [string, string]>>;
  let stranger: string;

  // Each case from its own address: every failed password check counts towards the sign-in limit of the client's IP.
  let clients = 0;
  const discover = async (op: 'fetch' | 'push', path: string, auth?: [string, string]): Promise<Answer> => {
    const service = op === 'fetch' ? 'git-upload-pack' : 'git-receive-pack';
    const res = await fetch(`${server.url}/${path}.git/info/refs?service=${service}`, {
      headers: {
        'cf-connecting-ip': `192.0.2.${++clients % 250}`,
        ...(auth && { authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` }),
      },
    });
    const body = await res.text();
    if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');
    return [res.status, res.status === 200 ? '' : body];
  };

  beforeAll(async () => {
    server = await serveTestApp();
    const owner = await createUser();
    for (const visibility of VISIBILITIES) projects[visibility] = await createProject(owner.token, { visibility });
    const application = await createApplication();
    stranger = (await createUser({ passwordHash: await hashPassword(PASSWORD) })).user.username;
    for (const role of Object.keys(ROLES) as Role[]) {
      const { user } = await createUser({ passwordHash: await hashPassword(PASSWORD) });
      if (ROLES[role])
        for (const visibility of VISIBILITIES)
          await addMember(owner.token, 'projects', (projects[visibility] as unknown as { id: number }).id, user.id, ROLES[role]);
      const oauth = randomToken('');
      await testDb()
        .db.insert(oauthAccessTokens)
        .values({
          tokenDigest: await sha256Hex(oauth),
          applicationId: application.id,
          userId: user.id,
          scopes: ['api'],
          expiresIn: 7200,
          lineage: oauth.slice(0, 16),
        });
      const entries = await Promise.all(
        CREDENTIALS.map(async (credential): Promise<[Credential, [string, string]]> => {
          if (credential === 'password') return [credential, [user.username, PASSWORD]];
          if (credential === 'oauth:api') return [credential, ['oauth2', oauth]];
          return [credential, [user.username, await createToken(user, [credential.slice('pat:'.length)])]];
        }),
      );
      logins[role] = Object.fromEntries(entries) as Record<Credential, [string, string]>;
    }
  });
  afterAll(() => server.close());

  for (const op of ['fetch', 'push'] as const) {
    for (const visibility of VISIBILITIES) {
      it(`${op}, ${visibility} project: anonymous and a wrong password`, async () => {
        const path = projects[visibility].path_with_namespace;
        expect(await discover(op, path)).toEqual(op === 'fetch' && visibility === 'public' ? OK : CHALLENGE);
        expect(await discover(op, path, ['nobody', 'glpat-not-a-token'])).toEqual(CHALLENGE);
        // (Another account: wrong passwords count towards the lock of the account they name.)
        expect(await discover(op, path, [stranger, 'wrong password'])).toEqual(CHALLENGE);
      });
      it(`${op}, ${visibility} project: every role with every credential`, async () => {
        const path = projects[visibility].path_with_namespace;
        const got: string[] = [];
        const want: string[] = [];
        for (const role of Object.keys(ROLES) as Role[]) {
          for (const credential of CREDENTIALS) {
            got.push(`${role} ${credential}: ${JSON.stringify(await discover(op, path, logins[role][credential]))}`);
            want.push(`${role} ${credential}: ${JSON.stringify(expected(op, visibility, role, credential))}`);
          }
        }
        expect(got).toEqual(want);
      });
    }
  }

  it(`password sign-ins from one address: only failures count towards its limit (${IP_ATTEMPT_LIMIT} a minute)`, async () => {
    const path = projects.private.path_with_namespace;
    const from = (auth: [string, string]) =>
      fetch(`${server.url}/${path}.git/info/refs?service=git-upload-pack`, {
        headers: { 'cf-connecting-ip': '198.51.100.7', authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` },
      });
    // A CI machine cloning with a password signs in on every request.
    for (let i = 0; i < IP_ATTEMPT_LIMIT + 10; i++) expect((await from(logins.maintainer.password)).status).toBe(200);
    // Failures do count: past the limit the address is refused even with the right password (401, as every git failure).
    for (let i = 0; i < IP_ATTEMPT_LIMIT; i++) expect((await from([`nobody-${i}`, 'not the password'])).status).toBe(401);
    expect((await from(logins.maintainer.password)).status).toBe(401);
  });
});
