// Avatars (issue 12, item 17): multipart `avatar` uploads on users, groups and projects are stored and served at
// GitLab 13.6's URLs (`/uploads/-/system/<model>/avatar/<id>/<file>`), byte for byte, with GitLab's limits and
// messages; a refused upload leaves the avatar that was there.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api, appFetch, request, TEST_PUBLIC_URL, type RequestOptions } from '../../helpers/app.ts';
import { gql } from '../../graphql/helpers.ts';

const bytes = (hex: string): Uint8Array<ArrayBuffer> => Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
const ascii = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

// A real 1x1 PNG, and the other accepted formats by their signatures.
const PNG = bytes(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082',
);
const GIF = concat(ascii('GIF89a'), bytes('010001008000000000ffffff21f90401000000002c00000000010001000002024401003b'));
const JPEG = bytes('ffd8ffe000104a46494600010100000100010000ffd9');
const BMP = concat(ascii('BM'), bytes('3a000000000000003600000028000000010000000100000001001800000000000400000000000000000000000000000000000000ffffff00'));
const TIFF = bytes('49492a0008000000000000000000');
const ICO = bytes('00000100010001010000010020003000000016000000');
const MAX = 200 * 1024;
const pngOfSize = (size: number) => concat(PNG, new Uint8Array(size - PNG.length));

const FORMAT = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico';
const SIZE = 'is too big (should be at most 200 KB)';

const multipart = (fields: Record<string, string | File>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};
const file = (content: Uint8Array<ArrayBuffer>, name: string, type = 'image/png') => new File([content], name, { type });

/** GET an absolute avatar_url through the app. */
const fetchAvatar = (url: string, options: RequestOptions = {}) => {
  expect(url.startsWith(`${TEST_PUBLIC_URL}/uploads/-/system/`)).toBe(true);
  return request('GET', url.slice(TEST_PUBLIC_URL.length), options);
};
describe('user avatars', () => {
  it("PUT /users/:id stores the upload and serves it at GitLab's URL, byte for byte, with safe headers", async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(PNG, 'me.png'), bio: 'with a face' }) });
    expect(res.status).toBe(200);
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${user.id}/me.png`;
    expect(res.body).toMatchObject({ id: user.id, bio: 'with a face', avatar_url: url });

    const served = await fetchBinary(url);
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(PNG);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(PNG.length));
    expect(served.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="me.png"; filename*=UTF-8''me.png`);
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);

    // Revalidation is cheap: the same bytes answer 304.
    const again = await fetchAvatar(url, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('the avatar shows wherever the user does: UserBasic, User, their personal namespace, GraphQL', async () => {
    const { token } = await createAdmin();
    const owner = await createUser();
    const project = await createProject(owner.token);
    await api.put(`/users/${owner.user.id}`, { token, multipart: multipart({ avatar: file(GIF, 'face.gif', 'image/gif') }) });
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${owner.user.id}/face.gif`;

    expect((await api.get(`/users/${owner.user.id}`)).body.avatar_url).toBe(url);
    expect((await api.get('/users', { query: { username: owner.user.username } })).body[0].avatar_url).toBe(url);
    expect((await api.get('/user', { token: owner.token })).body.avatar_url).toBe(url);
    expect((await api.get(`/projects/${project.id}`, { token: owner.token })).body.namespace.avatar_url).toBe(url);
    expect((await gql('{ currentUser { avatarUrl } }', { token: owner.token })).body).toEqual({ data: { currentUser: { avatarUrl: url } } });
    expect((await fetchBinary(url)).headers.get('content-type')).toBe('image/gif');
  });

  it('POST /users takes an avatar with the new user (201)', async () => {
    const { token } = await createAdmin();
    const username = unique('face');
    const res = await api.post('/users', {
      token,
      multipart: multipart({
        email: `${username}@example.com`,
        name: 'Face',
        username,
        password: 'secret-password',
        avatar: file(JPEG, 'photo.JPG', 'image/jpeg'),
      }),
    });
    expect(res.status).toBe(201);
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${res.body.id}/photo.JPG`;
    expect(res.body.avatar_url).toBe(url);
    const served = await fetchBinary(url);
    expect(served.bytes).toEqual(JPEG);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
  });

  it("accepts every format of 13.6's list and serves each with its own type", async () => {
    const { token } = await createAdmin();
    const cases: Array<[Uint8Array<ArrayBuffer>, string, string]> = [
      [PNG, 'a.png', 'image/png'],
      [JPEG, 'a.jpeg', 'image/jpeg'],
      [GIF, 'a.gif', 'image/gif'],
      [BMP, 'a.bmp', 'image/bmp'],
      [TIFF, 'a.tiff', 'image/tiff'],
      [ICO, 'a.ico', 'image/vnd.microsoft.icon'],
    ];
    for (const [content, name, type] of cases) {
      const { user } = await createUser();
      const res = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(content, name, 'application/octet-stream') }) });
      expect(res.status, name).toBe(200);
      const served = await fetchBinary(res.body.avatar_url);
      expect(served.bytes, name).toEqual(content);
      expect(served.headers.get('content-type'), name).toBe(type);
    }
  });

  it("200 KB is the limit: exactly 200 KiB is taken, one byte more is 400 with GitLab's message", async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const ok = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(pngOfSize(MAX), 'big.png') }) });
    expect(ok.status).toBe(200);
    expect((await fetchBinary(ok.body.avatar_url)).bytes.length).toBe(MAX);

    const tooBig = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(pngOfSize(MAX + 1), 'bigger.png') }) });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toEqual({ message: { avatar: [SIZE] } });
  });

  it("images only, by content: SVG, a spoofed extension, an unknown extension are 400 with GitLab's message", async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const refused = [
      file(ascii('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'),
      file(ascii('<html><script>alert(document.cookie)</script></html>'), 'innocent.png', 'image/png'),
      file(concat(ascii('BM'), ascii('W is a car, not a bitmap header at all')), 'car.bmp', 'image/bmp'),
      file(PNG, 'real-png-wrong-name.txt', 'image/png'),
      file(PNG, 'png', 'image/png'),
    ];
    for (const upload of refused) {
      const res = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: upload }) });
      expect(res.status, upload.name).toBe(400);
      expect(res.body, upload.name).toEqual({ message: { avatar: [FORMAT] } });
    }
    // Both validations, in Avatarable's order.
    const both = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(new Uint8Array(MAX + 1), 'notes.txt', 'text/plain') }) });
    expect(both.body).toEqual({ message: { avatar: [FORMAT, SIZE] } });
    expect((await api.get(`/users/${user.id}`)).body.avatar_url).toBeNull();
  });

  it('a refused upload keeps the avatar that was there (bytes and URL), and so does a change refused for another field', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const first = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(PNG, 'keep.png') }) });
    const url = first.body.avatar_url;

    const tooBig = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(pngOfSize(MAX + 1), 'keep.png') }) });
    expect(tooBig.status).toBe(400);
    const spoofed = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(ascii('<html></html>'), 'other.png') }) });
    expect(spoofed.status).toBe(400);
    const badBio = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(GIF, 'keep.png'), bio: 'x'.repeat(256) }) });
    expect(badBio.body).toEqual({ message: { bio: ['is too long (maximum is 255 characters)'] } });

    expect((await api.get(`/users/${user.id}`)).body.avatar_url).toBe(url);
    expect((await fetchBinary(url)).bytes).toEqual(PNG);
    expect((await fetchAvatar(`${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${user.id}/other.png`)).status).toBe(404);
  });

  it('a new upload replaces the old one: new bytes and ETag; the old file name is gone', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const first = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(PNG, 'a.png') }) });
    const oldTag = (await fetchBinary(first.body.avatar_url)).headers.get('etag')!;
    // Same name, other content: the URL stays, the ETag tells clients to fetch again.
    const same = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(GIF, 'a.png') }) });
    expect(same.body.avatar_url).toBe(first.body.avatar_url);
    const refetched = await fetchAvatar(same.body.avatar_url, { headers: { 'If-None-Match': oldTag } });
    expect(refetched.status).toBe(200);
    expect(refetched.headers.get('etag')).not.toBe(oldTag);
    expect((await fetchBinary(same.body.avatar_url)).bytes).toEqual(GIF);

    const renamed = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(JPEG, 'b.jpg') }) });
    expect(renamed.body.avatar_url).toBe(`${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${user.id}/b.jpg`);
    expect((await fetchAvatar(first.body.avatar_url)).status).toBe(404);
  });

  it('`avatar` must be a file: a text field (13.6 cannot remove an avatar) or a JSON value is 400 `avatar is invalid`; JSON null is no change', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(PNG, 'stay.png') }) });
    for (const options of [{ multipart: multipart({ avatar: '' }) }, { form: { avatar: '' } }, { body: { avatar: 'x.png' } }, { body: { avatar: {} } }]) {
      const res = await api.put(`/users/${user.id}`, { token, ...options });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'avatar is invalid' });
    }
    const unchanged = await api.put(`/users/${user.id}`, { token, body: { avatar: null, bio: 'still me' } });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ bio: 'still me', avatar_url: expect.stringMatching(/\/stay\.png$/) });
  });

  it('file names are sanitized as CarrierWave does; the served name matches the URL', async () => {
    const { token } = await createAdmin();
    const { user } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(PNG, '../my "face" é?.png') }) });
    expect(res.body.avatar_url).toBe(`${TEST_PUBLIC_URL}/uploads/-/system/user/avatar/${user.id}/my__face__%C3%A9_.png`);
    const served = await fetchBinary(res.body.avatar_url);
    expect(served.bytes).toEqual(PNG);
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="my__face____.png"; filename*=UTF-8''my__face__%C3%A9_.png`);
  });

  it("only administrators set a user's avatar: the permission check comes before the upload is looked at", async () => {
    const { user, token } = await createUser();
    const res = await api.put(`/users/${user.id}`, { token, multipart: multipart({ avatar: file(ascii('not an image'), 'x.txt') }) });
    expect(res.status).toBe(403);
  });

  it('unknown owners, kinds and file names are 404', async () => {
    for (const path of [
      '/uploads/-/system/user/avatar/2147483647/a.png',
      '/uploads/-/system/user/avatar/99999999999/a.png',
      '/uploads/-/system/note/avatar/1/a.png',
    ]) {
      expect((await request('GET', path)).status, path).toBe(404);
    }
  });
});

describe('group avatars', () => {
  it("POST /groups and PUT /groups/:id take an avatar; REST and GraphQL show it; a public group's is public", async () => {
    const owner = await createUser();
    const path = unique('faces');
    const created = await api.post('/groups', {
      token: owner.token,
      multipart: multipart({ name: path, path, visibility: 'public', avatar: file(PNG, 'group.png') }),
    });
    expect(created.status).toBe(201);
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/group/avatar/${created.body.id}/group.png`;
    expect(created.body.avatar_url).toBe(url);
    expect((await fetchBinary(url)).bytes).toEqual(PNG);

    const updated = await api.put(`/groups/${created.body.id}`, { token: owner.token, multipart: multipart({ avatar: file(GIF, 'new.gif') }) });
    expect(updated.status).toBe(200);
    const newUrl = `${TEST_PUBLIC_URL}/uploads/-/system/group/avatar/${created.body.id}/new.gif`;
    expect(updated.body.avatar_url).toBe(newUrl);
    expect((await api.get(`/groups/${created.body.id}`)).body.avatar_url).toBe(newUrl);
    expect((await gql('query($p: ID!) { group(fullPath: $p) { avatarUrl } }', { variables: { p: path } })).body).toEqual({
      data: { group: { avatarUrl: newUrl } },
    });
    expect((await fetchBinary(newUrl)).bytes).toEqual(GIF);
  });

  it("a private group's avatar is for those who may read the group (404 for everyone else)", async () => {
    const owner = await createUser();
    const member = await createUser();
    const group = await createGroup(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'groups', group.id, member.user.id, 10);
    const res = await api.put(`/groups/${group.id}`, { token: owner.token, multipart: multipart({ avatar: file(PNG, 'secret.png') }) });
    const url = res.body.avatar_url;
    expect((await fetchAvatar(url)).status).toBe(404);
    expect((await fetchAvatar(url, { token: (await createUser()).token })).status).toBe(404);
    expect((await fetchBinary(url, member.token)).bytes).toEqual(PNG);
  });

  it('limits and permissions as for users: a developer gets 403 before the upload is checked; an owner 400', async () => {
    const owner = await createUser();
    const developer = await createUser();
    const group = await createGroup(owner.token);
    await addMember(owner.token, 'groups', group.id, developer.user.id, 30);
    const bad = () => multipart({ avatar: file(pngOfSize(MAX + 1), 'big.png') });
    expect((await api.put(`/groups/${group.id}`, { token: developer.token, multipart: bad() })).status).toBe(403);
    const res = await api.put(`/groups/${group.id}`, { token: owner.token, multipart: bad() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { avatar: [SIZE] } });
    const path = unique('svg');
    const created = await api.post('/groups', {
      token: owner.token,
      multipart: multipart({ name: path, path, avatar: file(ascii('<svg/>'), 'a.svg', 'image/svg+xml') }),
    });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: { avatar: [FORMAT] } });
    expect((await api.get(`/groups/${path}`, { token: owner.token })).status).toBe(404);
  });
});

describe('project avatars', () => {
  it('POST /projects and PUT /projects/:id take an avatar; REST lists and GraphQL show it', async () => {
    const owner = await createUser();
    const name = unique('pic');
    const created = await api.post('/projects', { token: owner.token, multipart: multipart({ name, visibility: 'public', avatar: file(PNG, 'logo.png') }) });
    expect(created.status).toBe(201);
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/project/avatar/${created.body.id}/logo.png`;
    expect(created.body.avatar_url).toBe(url);
    expect((await fetchBinary(url)).bytes).toEqual(PNG);
    expect((await api.get('/projects', { query: { search: name } })).body[0].avatar_url).toBe(url);

    const updated = await api.put(`/projects/${created.body.id}`, {
      token: owner.token,
      multipart: multipart({ description: 'd', avatar: file(ICO, 'favicon.ico') }),
    });
    expect(updated.status).toBe(200);
    const newUrl = `${TEST_PUBLIC_URL}/uploads/-/system/project/avatar/${created.body.id}/favicon.ico`;
    expect(updated.body).toMatchObject({ description: 'd', avatar_url: newUrl });
    const gqlRes = await gql('query($p: ID!) { project(fullPath: $p) { avatarUrl } }', { variables: { p: created.body.path_with_namespace } });
    expect(gqlRes.body).toEqual({ data: { project: { avatarUrl: newUrl } } });
    const served = await fetchBinary(newUrl);
    expect(served.bytes).toEqual(ICO);
    expect(served.headers.get('content-type')).toBe('image/vnd.microsoft.icon');
  });

  it("a private project's avatar is for its members (a token works as a session does); others get 404", async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    const res = await api.put(`/projects/${project.id}`, { token: owner.token, multipart: multipart({ avatar: file(GIF, 'p.gif') }) });
    expect(res.status).toBe(200);
    expect((await fetchAvatar(res.body.avatar_url)).status).toBe(404);
    expect((await fetchAvatar(res.body.avatar_url, { token: (await createUser()).token })).status).toBe(404);
    expect((await fetchBinary(res.body.avatar_url, owner.token)).bytes).toEqual(GIF);
  });

  it("a fork starts with its source's avatar, under its own path (Projects::ForkService)", async () => {
    const owner = await createUser();
    const forker = await createUser();
    const source = await api.post('/projects', {
      token: owner.token,
      multipart: multipart({ name: unique('src'), visibility: 'public', avatar: file(GIF, 'src.gif') }),
    });
    const fork = await api.post(`/projects/${source.body.id}/fork`, { token: forker.token });
    expect(fork.status).toBe(201);
    const url = `${TEST_PUBLIC_URL}/uploads/-/system/project/avatar/${fork.body.id}/src.gif`;
    expect(fork.body.avatar_url).toBe(url);
    expect((await fetchBinary(url)).bytes).toEqual(GIF);
    // Two files from then on: replacing the source's leaves the fork's.
    await api.put(`/projects/${source.body.id}`, { token: owner.token, multipart: multipart({ avatar: file(PNG, 'src.gif') }) });
    expect((await fetchBinary(url)).bytes).toEqual(GIF);
  });

  it('a refused upload keeps the old avatar; a project created with a refused one is not created', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    const first = await api.put(`/projects/${project.id}`, { token: owner.token, multipart: multipart({ avatar: file(PNG, 'one.png') }) });
    const refused = await api.put(`/projects/${project.id}`, {
      token: owner.token,
      multipart: multipart({ name: 'renamed', avatar: file(ascii('GIF88a-ish'), 'two.gif') }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { avatar: [FORMAT] } });
    const after = (await api.get(`/projects/${project.id}`)).body;
    expect(after).toMatchObject({ name: project.name, avatar_url: first.body.avatar_url });
    expect((await fetchBinary(first.body.avatar_url)).bytes).toEqual(PNG);

    const name = unique('never');
    const create = await api.post('/projects', { token: owner.token, multipart: multipart({ name, avatar: file(pngOfSize(MAX + 1), 'big.png') }) });
    expect(create.body).toEqual({ message: { avatar: [SIZE] } });
    expect((await api.get('/projects', { token: owner.token, query: { search: name } })).body).toEqual([]);
  });
});

/** The response body as bytes (the shared `request` reads bodies as text). */
async function fetchBinary(url: string, token?: string) {
  expect(url.startsWith(`${TEST_PUBLIC_URL}/uploads/-/system/`)).toBe(true);
  const res = await appFetch(url, token ? { headers: { 'PRIVATE-TOKEN': token } } : {});
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
