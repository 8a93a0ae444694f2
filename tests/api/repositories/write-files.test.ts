// The files API's writes through HTTP (GitLab 13.6 lib/api/files.rb): POST 201 / PUT 200 / DELETE 204 with
// `{file_path, branch}` bodies, URL-encoded paths, base64 content, last_commit_id, and the protected default branch
// refusing developers with Commits::CreateService's 400.
import { describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

async function setup() {
  const owner = await createUser();
  const developer = await createUser();
  const reporter = await createUser();
  const res = await api.post('/projects', {
    token: owner.token,
    body: { name: `files-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, initialize_with_readme: true },
  });
  expect(res.status, res.text).toBe(201);
  const project = res.body as { id: number };
  await addMember(owner.token, 'projects', project.id, developer.user.id, 30);
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  return { owner, developer, reporter, project };
}
type Fx = Awaited<ReturnType<typeof setup>>;
const fileUrl = (fx: Fx, path: string) => `/projects/${fx.project.id}/repository/files/${encodeURIComponent(path)}`;
const read = async (fx: Fx, path: string, ref = 'master') => {
  const res = await api.get(fileUrl(fx, path), { token: fx.owner.token, query: { ref } });
  return res.status === 200 ? (res.body as { content: string; last_commit_id: string }) : undefined;
};
const text = (f: { content: string } | undefined) => f && Buffer.from(f.content, 'base64').toString();

describe('files API writes', () => {
  it('POST 201, PUT 200, DELETE 204 with GitLab bodies; unicode and nested paths', async () => {
    const fx = await setup();
    const path = 'docs/ünï cødé/notes.v1.md';
    const created = await api.post(fileUrl(fx, path), { token: fx.owner.token, body: { branch: 'master', content: 'one', commit_message: 'Create' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ file_path: path, branch: 'master' });
    expect(text(await read(fx, path))).toBe('one');

    const updated = await api.put(fileUrl(fx, path), {
      token: fx.owner.token,
      body: { branch: 'master', content: 'dHdv', encoding: 'base64', commit_message: 'Update' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({ file_path: path, branch: 'master' });
    expect(text(await read(fx, path))).toBe('two');

    const deleted = await api.delete(fileUrl(fx, path), { token: fx.owner.token, body: { branch: 'master', commit_message: 'Delete' } });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await read(fx, path)).toBeUndefined();
  });

  it('a developer writes to a new branch from start_branch, but not to the protected default branch', async () => {
    const fx = await setup();
    const onDefault = await api.post(fileUrl(fx, 'd.txt'), { token: fx.developer.token, body: { branch: 'master', content: 'd', commit_message: 'c' } });
    expect(onDefault.status).toBe(400);
    expect(onDefault.body).toEqual({ message: 'You are not allowed to push into this branch' });
    const onBranch = await api.post(fileUrl(fx, 'd.txt'), {
      token: fx.developer.token,
      body: { branch: 'dev', start_branch: 'master', content: 'd', commit_message: 'c' },
    });
    expect(onBranch.status, onBranch.text).toBe(201);
    expect(text(await read(fx, 'd.txt', 'dev'))).toBe('d');
    expect(await read(fx, 'd.txt')).toBeUndefined();
  });

  it('last_commit_id: the file must not have changed since', async () => {
    const fx = await setup();
    const readme = await read(fx, 'README.md');
    const ok = await api.put(fileUrl(fx, 'README.md'), {
      token: fx.owner.token,
      body: { branch: 'master', content: 'new', commit_message: 'c', last_commit_id: readme!.last_commit_id },
    });
    expect(ok.status, ok.text).toBe(200);
    const stale = await api.put(fileUrl(fx, 'README.md'), {
      token: fx.owner.token,
      body: { branch: 'master', content: 'newer', commit_message: 'c', last_commit_id: readme!.last_commit_id },
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ message: 'You are attempting to update a file that has changed since you started editing it.' });
    expect(text(await read(fx, 'README.md'))).toBe('new');
  });

  const refusals: [string, 'post' | 'put' | 'delete', string, Record<string, unknown>, unknown][] = [
    ['create over an existing file', 'post', 'README.md', { content: 'x' }, { message: 'A file with this name already exists' }],
    ['update of a missing file', 'put', 'nope.md', { content: 'x' }, { message: "A file with this name doesn't exist" }],
    ['delete of a missing file', 'delete', 'nope.md', {}, { message: "A file with this name doesn't exist" }],
    [
      'a file over MAX_FILE_SIZE',
      'post',
      'big.txt',
      { content: 'x'.repeat(2000) },
      { message: 'File big.txt is too large (0 MB): the maximum file size is 0 MB' },
    ],
    ['encoding=text (13.6 takes base64 only)', 'post', 'e.txt', { content: 'x', encoding: 'text' }, { error: 'encoding does not have a valid value' }],
    ['no commit_message', 'post', 'e.txt', { content: 'x', commit_message: undefined }, { error: 'commit_message is missing' }],
  ];
  it.each(refusals)('refuses %s; nothing written', async (_t, method, path, body, expected) => {
    const fx = await setup();
    const before = await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token });
    const res = await api[method](fileUrl(fx, path), {
      token: fx.owner.token,
      body: { branch: 'master', commit_message: 'c', ...body },
      env: { MAX_FILE_SIZE: '1000' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(expected);
    expect((await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token })).body).toEqual(before.body);
  });
});

describeAuthorization('POST /projects/:id/repository/files/:file_path', {
  fixture: async () => {
    const fx = await setup();
    const stranger = await createUser();
    return { ...fx, allowed: fx.owner.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(fileUrl(fx, `${Math.random()}.txt`), { token, body: { branch: 'master', content: 'x', commit_message: 'c' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
