// Who may read a repository (project:download_code): reporters and above of a private project; anyone who reads a
// public one, anonymous callers included. A caller who cannot see the project gets 404 Project Not Found; one who
// sees it but may not download its code (a guest of a private project) 403, as GitLab's find_project! then
// authorize! :download_code answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { RepoWriter } from './read-support.ts';

let owner: { token: string };
let reporter: { token: string };
let guest: { token: string };
let stranger: { token: string };
let privateId: number;
let publicId: number;
let blobId: string;

const paths = (id: number) => [
  `/projects/${id}/repository/branches`,
  `/projects/${id}/repository/branches/main`,
  `/projects/${id}/repository/tags`,
  `/projects/${id}/repository/commits`,
  `/projects/${id}/repository/commits/main`,
  `/projects/${id}/repository/tree`,
  `/projects/${id}/repository/blobs/${blobId}`,
  `/projects/${id}/repository/blobs/${blobId}/raw`,
  `/projects/${id}/repository/files/README.md?ref=main`,
  `/projects/${id}/repository/files/README.md/raw`,
];

beforeAll(async () => {
  [owner, reporter, guest, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
  privateId = (await createProject(owner.token)).id;
  publicId = (await createProject(owner.token, { visibility: 'public' })).id;
  const userId = async (u: { token: string }) => (await api.get('/user', { token: u.token })).body.id as number;
  await addMember(owner.token, 'projects', privateId, await userId(reporter), 20);
  await addMember(owner.token, 'projects', privateId, await userId(guest), 10);
  for (const id of [privateId, publicId]) {
    const repo = await RepoWriter.open(id);
    await repo.commit('main', { 'README.md': '# hi\n' }, 'Initial\n', 1_600_000_000);
  }
  blobId = (await api.get(`/projects/${publicId}/repository/files/README.md`, { query: { ref: 'main' } })).body.blob_id;
});

describe('repository reads: visibility', () => {
  it('a reporter of a private project reads everything', async () => {
    for (const p of paths(privateId)) expect((await api.get(p, { token: reporter.token })).status, p).toBe(200);
  });

  it('a guest of a private project: 403 Forbidden', async () => {
    for (const p of paths(privateId)) expect(await api.get(p, { token: guest.token }), p).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('a non-member and an anonymous caller: 404 Project Not Found', async () => {
    for (const p of paths(privateId)) {
      expect(await api.get(p, { token: stranger.token }), p).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await api.get(p), p).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    }
  });

  it('anyone reads a public project, anonymous callers included', async () => {
    for (const p of paths(publicId)) {
      expect((await api.get(p)).status, p).toBe(200);
      expect((await api.get(p, { token: stranger.token })).status, p).toBe(200);
    }
  });

  it('a read_repository token reads files (GET, HEAD, raw) and nothing else of the repository API', async () => {
    const { user } = await createUser();
    const token = await createToken(user, ['read_repository']);
    await addMember(owner.token, 'projects', privateId, user.id, 20);
    expect((await api.get(`/projects/${privateId}/repository/files/README.md`, { token, query: { ref: 'main' } })).status).toBe(200);
    expect((await api.get(`/projects/${privateId}/repository/files/README.md/raw`, { token })).text).toBe('# hi\n');
    expect(await api.get(`/projects/${privateId}/repository/tree`, { token })).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect(await api.delete(`/projects/${privateId}/repository/files/README.md`, { token, body: { branch: 'main', commit_message: 'x' } })).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope' },
    });
  });

  it('an unknown project: 404 Project Not Found', async () => {
    expect(await api.get('/projects/999999999/repository/tree', { token: owner.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });
});

/** The shared generator, on the private project above (anonymous: 404, the project is hidden). */
const fixture = async () => ({ allowed: reporter.token, nonMember: stranger.token, insufficientRole: guest.token });
const hidden = { status: 404, body: { message: '404 Project Not Found' } };

describeAuthorization('GET /projects/:id/repository/tree', {
  fixture,
  call: (_fx, token) => api.get(`/projects/${privateId}/repository/tree`, { token }),
  success: 200,
  anonymous: hidden,
  nonMember: hidden,
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('GET /projects/:id/repository/files/:file_path', {
  fixture,
  call: (_fx, token) => api.get(`/projects/${privateId}/repository/files/README.md`, { token, query: { ref: 'main' } }),
  success: 200,
  anonymous: hidden,
  // read_repository reaches the files API: the token's user (no member) then meets the project's rule.
  wrongScope: hidden,
  nonMember: hidden,
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
