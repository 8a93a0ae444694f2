// Input that once answered 500 (issue 28): a NUL byte in a ref, sha or path parameter, a NUL in an alert payload,
// Rack's parameter names that contradict each other, a malformed multipart body. Each is GitLab's 400.
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api, appFetch, request, TEST_PUBLIC_URL } from '../../helpers/app.ts';
import { alertsOf, notify, setup as alertSetup } from '../alerts-notify/support.ts';

async function repoProject() {
  const owner = await createUser();
  const res = await api.post('/projects', {
    token: owner.token,
    body: { name: `nul-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, initialize_with_readme: true },
  });
  expect(res.status, res.text).toBe(201);
  return { token: owner.token, base: `/projects/${res.body.id}/repository` };
}

describe('a NUL byte in a ref, sha or path parameter: 400 `<name> is invalid`', () => {
  it.each([
    ['commits ref_name', '/commits', { ref_name: 'mas\u0000ter' }, 'ref_name is invalid'],
    ['commits path', '/commits', { path: 'READ\u0000ME.md' }, 'path is invalid'],
    ['tree ref', '/tree', { ref: 'mas\u0000ter' }, 'ref is invalid'],
    ['tree path', '/tree', { path: 'a\u0000' }, 'path is invalid'],
    ['files ref', '/files/README.md', { ref: 'mas\u0000ter' }, 'ref is invalid'],
    ['archive sha', '/archive', { sha: 'mas\u0000ter' }, 'sha is invalid'],
    ['archive path', '/archive', { path: '\u0000' }, 'path is invalid'],
    ['commit sha in the path', '/commits/ma%00ster', {}, 'sha is invalid'],
    ['file path in the path', '/files/READ%00ME.md', { ref: 'master' }, 'file_path is invalid'],
  ])('%s', async (_name, path, query, error) => {
    const { token, base } = await repoProject();
    const res = await api.get(`${base}${path}`, { token, query });
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it('in a form body and in a nested name, each named as Grape names it', async () => {
    const { token, base } = await repoProject();
    const form = 'branch=master&commit_message=x&actions%5B%5D%5Baction%5D=create&actions%5B%5D%5Bfile_path%5D=a%00b&actions%5B%5D%5Bcontent%5D=z';
    const res = await appFetch(`${TEST_PUBLIC_URL}/api/v4${base}/commits`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect([res.status, await res.json()]).toEqual([400, { error: 'actions[0][file_path] is invalid' }]);
  });
});

describe('parameters Rack cannot read: 400 `Bad Request` (text/plain), as GitLab answers before the API', () => {
  it.each([
    ['a value and an Array', 'labels=a&labels%5B%5D=b'],
    ['a value and a Hash', 'not=a&not%5Blabels%5D=b'],
    ['an Array and a Hash', 'iids%5B%5D=1&iids%5Bx%5D=2'],
    ['names nested past 100 levels', `a${'%5Bb%5D'.repeat(100)}=1`],
  ])('%s', async (_name, query) => {
    const { token } = await createUser();
    const res = await request('GET', `/api/v4/merge_requests?${query}`, { token });
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([400, 'Bad Request', 'text/plain; charset=UTF-8']);
  });
});

describe('a malformed multipart body: 400, never a 500', () => {
  it.each([
    ['no parts', ''],
    ['an unterminated part', '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nT'],
    ['garbage', 'garbage'],
  ])('%s', async (_name, data) => {
    const { token } = await createUser();
    const res = await appFetch(`${TEST_PUBLIC_URL}/api/v4/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: data,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        "\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying multipart/form-data as content-type, you must pass valid multipart/form-data in the request's 'body' ",
    });
  });
});

describe('a NUL byte in an alert payload: 400 `Bad Request`, nothing recorded', () => {
  it.each([
    ['in a value', { title: 'a\u0000b' }],
    ['deep in a value', { title: 'x', a: { b: { c: { d: ['\u0000'] } } } }],
    ['in a key', { title: 'x', ['k\u0000']: 1 }],
  ])('%s', async (_name, body) => {
    const s = await alertSetup();
    const res = await notify(s.integration.path, { token: s.integration.token, body });
    expect([res.status, res.text]).toEqual([400, 'Bad Request']);
    expect(await alertsOf(s.project.id)).toEqual([]);
  });

  it('in the project path of the URL', async () => {
    const s = await alertSetup();
    const res = await notify(`/${s.path}%00/alerts/notify.json`, { token: s.integration.token, body: { title: 'x' } });
    expect([res.status, res.text]).toEqual([400, 'Bad Request']);
  });
});
