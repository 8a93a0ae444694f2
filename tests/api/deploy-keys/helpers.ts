// Fixtures for the deploy key tests: real OpenSSH keys made by ssh-keygen (with its own fingerprints to compare
// with), a private project with one user per role, and the endpoints.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { deployKeysProjects, keys } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, testDb, type RequestOptions } from '../../helpers/app.ts';

export interface GeneratedKey {
  /** The .pub line, without its newline. */
  pub: string;
  /** `ssh-keygen -l -E md5` without `MD5:`. */
  md5: string;
  /** `ssh-keygen -l -E sha256` without `SHA256:`. */
  sha256: string;
  /** The private key file's text (for the "private key pasted" case). */
  privateKey: string;
}

const fingerprint = (file: string, hash: 'md5' | 'sha256') =>
  execFileSync('ssh-keygen', ['-l', '-E', hash, '-f', file], { encoding: 'utf8' })
    .split(' ')[1]!
    .replace(/^(MD5|SHA256):/, '');

/** A new key pair of this type, made in a temporary directory that is removed at once. */
export function generateKey(type: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519', comment = unique('deploy@')): GeneratedKey {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-key-'));
  try {
    const file = join(dir, 'id');
    execFileSync('ssh-keygen', ['-q', '-t', type, ...(type === 'rsa' ? ['-b', '2048'] : []), '-N', '', '-C', comment, '-f', file]);
    return {
      pub: readFileSync(`${file}.pub`, 'utf8').trim(),
      md5: fingerprint(`${file}.pub`, 'md5'),
      sha256: fingerprint(`${file}.pub`, 'sha256'),
      privateKey: readFileSync(file, 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const keysPath = (project: number | string) => `/projects/${encodeURIComponent(String(project))}/deploy_keys`;

export const listKeys = (project: number | string, o?: RequestOptions) => api.get(keysPath(project), o);
export const getKey = (project: number | string, keyId: number | string, o?: RequestOptions) => api.get(`${keysPath(project)}/${keyId}`, o);
export const addKey = (project: number | string, o?: RequestOptions) => api.post(keysPath(project), o);
export const updateKey = (project: number | string, keyId: number | string, o?: RequestOptions) => api.put(`${keysPath(project)}/${keyId}`, o);
export const enableKey = (project: number | string, keyId: number | string, o?: RequestOptions) => api.post(`${keysPath(project)}/${keyId}/enable`, o);
export const removeKey = (project: number | string, keyId: number | string, o?: RequestOptions) => api.delete(`${keysPath(project)}/${keyId}`, o);

/** Adds a new key to the project as `token` and returns the entity. */
export async function createDeployKey(project: number, token: string, body: { key?: string; title?: string; can_push?: boolean } = {}) {
  const res = await addKey(project, { token, body: { title: unique('key '), key: generateKey().pub, ...body } });
  if (res.status !== 201) throw new Error(`createDeployKey failed: ${res.status} ${res.text}`);
  return res.body as { id: number; title: string; key: string; created_at: string; expires_at: null; can_push: boolean };
}

/** A private project (in a group) and one user per role. */
export async function projectWithRoles() {
  const owner = await createUser();
  const [maintainer, developer, reporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser(), createUser()]);
  const group = await createGroup(owner.token, { visibility: 'private' });
  const project = await createProject(owner.token, { namespaceId: group.id, visibility: 'private' });
  await addMember(owner.token, 'projects', project.id, maintainer.user.id, 40);
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  return { project, owner, maintainer, developer, reporter, guest, stranger };
}

/** The stored key rows with this text or fingerprint, and the projects each is enabled in. */
export async function storedKeys(where: { md5: string }) {
  const { db } = testDb();
  const rows = await db.select().from(keys).where(eq(keys.fingerprint, where.md5));
  return Promise.all(
    rows.map(async (k) => ({
      ...k,
      projectIds: (await db.select().from(deployKeysProjects).where(eq(deployKeysProjects.deployKeyId, k.id))).map((l) => l.projectId).sort(),
    })),
  );
}

/** Number of links a project has. */
export async function linkCount(projectId: number) {
  return (await testDb().db.select().from(deployKeysProjects).where(eq(deployKeysProjects.projectId, projectId))).length;
}

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
