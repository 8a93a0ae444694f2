// Protected tags through HTTP (GitLab 13.6 lib/api/protected_tags.rb with Entities::ProtectedTag and
// ProtectedTags::CreateService): list/get/protect/unprotect for maintainers, and the rule enforced where 13.6's
// pre-receive TagCheck enforces it (POST repository/tags below the create level, DELETE repository/tags of any
// protected tag, both 400 with the check's message) and shown in the Tag entity's `protected`.
import { describe, expect, it } from 'vitest';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithMaintainer } from './team-support.ts';

const setup = () => projectWithMaintainer('pt');
type Fx = Awaited<ReturnType<typeof setup>>;
const url = (fx: Fx, rest = '') => `/projects/${fx.project.id}/protected_tags${rest}`;
const tagsUrl = (fx: Fx, rest = '') => `/projects/${fx.project.id}/repository/tags${rest}`;
const list = async (fx: Fx) => (await api.get(url(fx), { token: fx.owner.token, query: { per_page: 100 } })).body as { name: string }[];
const protect = (fx: Fx, body: Record<string, unknown>) => api.post(url(fx), { token: fx.maintainer.token, body });
const createTag = (fx: Fx, token: string, name: string) => api.post(tagsUrl(fx), { token, body: { tag_name: name, ref: 'master' } });
const tagNames = async (fx: Fx) =>
  ((await api.get(tagsUrl(fx), { token: fx.owner.token, query: { per_page: 100 } })).body as { name: string }[]).map((t) => t.name).sort();
const tagPushes = async (fx: Fx) =>
  (
    (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed', per_page: 100 } })).body as {
      push_data: { ref_type: string };
    }[]
  ).filter((e) => e.push_data.ref_type === 'tag').length;
const levels = (n: number, d: string) => [{ access_level: n, access_level_description: d }];
const MAINTAINERS = levels(40, 'Maintainers');
const CREATE_REFUSED = { message: 'You are not allowed to create this tag as it is protected.' };
const DELETE_REFUSED = { message: 'Protected tags cannot be deleted.' };

describe('POST /projects/:id/protected_tags', () => {
  it('201 with Entities::ProtectedTag; the create level defaults to maintainers; 30 and 0 as given', async () => {
    const fx = await setup();
    const res = await protect(fx, { name: 'v*' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ name: 'v*', create_access_levels: MAINTAINERS });
    expect((await protect(fx, { name: 'dev-*', create_access_level: 30 })).body).toEqual({
      name: 'dev-*',
      create_access_levels: levels(30, 'Developers + Maintainers'),
    });
    // Form-encoded, as clients send it; the level arrives as text.
    const frozen = await api.post(url(fx), { token: fx.maintainer.token, form: { name: 'frozen', create_access_level: '0' } });
    expect(frozen.status, frozen.text).toBe(201);
    expect(frozen.body).toEqual({ name: 'frozen', create_access_levels: levels(0, 'No one') });
    expect((await list(fx)).map((p) => p.name)).toEqual(['v*', 'dev-*', 'frozen']);
  });

  it('the same name in another project is another protection', async () => {
    const [a, b] = await Promise.all([setup(), setup()]);
    expect((await protect(a, { name: 'release' })).status).toBe(201);
    expect((await protect(b, { name: 'release' })).status).toBe(201);
  });

  const refusals: [string, Record<string, unknown>, number, unknown][] = [
    ['an already protected name', { name: 'v*' }, 422, { message: ['Name has already been taken'] }],
    ['an already protected name with another level', { name: 'v*', create_access_level: 30 }, 422, { message: ['Name has already been taken'] }],
    ['no name', {}, 400, { error: 'name is missing' }],
    ['no name but a level', { create_access_level: 30 }, 400, { error: 'name is missing' }],
    ['a blank name', { name: '' }, 422, { message: ["Name can't be blank"] }],
    ['a whitespace name', { name: '   ' }, 422, { message: ["Name can't be blank"] }],
    ['an unknown level (reporter)', { name: 'x', create_access_level: 20 }, 400, { error: 'create_access_level does not have a valid value' }],
    ['the admin level, not a CE create level', { name: 'x', create_access_level: 60 }, 400, { error: 'create_access_level does not have a valid value' }],
    ['a non-numeric level', { name: 'x', create_access_level: 'dev' }, 400, { error: 'create_access_level is invalid' }],
  ];
  it.each(refusals)('refuses %s; nothing written', async (_t, body, status, expected) => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    const before = await list(fx);
    const res = await protect(fx, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(expected);
    expect(await list(fx)).toEqual(before);
  });

  it('racing duplicate creates: exactly one 201, the others 422 Name has already been taken', async () => {
    const fx = await setup();
    const results = await Promise.all(Array.from({ length: 8 }, () => protect(fx, { name: 'race-*' })));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status, r.text).toBe(422);
      expect(r.body).toEqual({ message: ['Name has already been taken'] });
    }
    expect((await list(fx)).map((p) => p.name)).toEqual(['race-*']);
  });
});

describe('GET /projects/:id/protected_tags[/:name]', () => {
  it('lists by creation with GitLab pagination headers; one by its exact name (slashes and * encoded); 404 Not found', async () => {
    const fx = await setup();
    for (const name of ['release/*', 'v1', 'stable']) expect((await protect(fx, { name })).status).toBe(201);
    const page = await api.get(url(fx), { token: fx.maintainer.token, query: { per_page: 2 } });
    expect(page.status, page.text).toBe(200);
    expect(page.body).toEqual([
      { name: 'release/*', create_access_levels: MAINTAINERS },
      { name: 'v1', create_access_levels: MAINTAINERS },
    ]);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-page')).toBe('1');
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(page.headers.get('x-next-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    const second = await api.get(url(fx), { token: fx.maintainer.token, query: { per_page: 2, page: 2 } });
    expect((second.body as { name: string }[]).map((p) => p.name)).toEqual(['stable']);
    expect(second.headers.get('x-prev-page')).toBe('1');
    const one = await api.get(url(fx, '/release%2F%2A'), { token: fx.maintainer.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ name: 'release/*', create_access_levels: MAINTAINERS });
    // A pattern is found by its text only, not by a name it matches.
    for (const name of ['release%2F1', 'unknown']) {
      const missing = await api.get(url(fx, `/${name}`), { token: fx.maintainer.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    }
  });

  it('an empty list is [] with X-Total 0', async () => {
    const fx = await setup();
    const res = await api.get(url(fx), { token: fx.maintainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });
});

describe('DELETE /projects/:id/protected_tags/:name', () => {
  it('204; the protection is gone at once; 404 Not found the second time; 412 when modified since', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    expect((await createTag(fx, fx.developer.token, 'v1')).body).toEqual(CREATE_REFUSED);
    const stale = await api.delete(url(fx, '/v*'), { token: fx.maintainer.token, headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(stale.status).toBe(412);
    expect(await list(fx)).toHaveLength(1);
    const res = await api.delete(url(fx, '/v%2A'), { token: fx.maintainer.token });
    expect(res.status, res.text).toBe(204);
    expect(await list(fx)).toEqual([]);
    expect((await createTag(fx, fx.developer.token, 'v1')).status).toBe(201);
    const again = await api.delete(url(fx, '/v*'), { token: fx.maintainer.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Not found' });
  });
});

describe('the rule on repository tags', () => {
  it('v* protects every tag starting with v (slashes included) and nothing else', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    for (const name of ['v1', 'v1.0.0', 'v/2/3', 'v']) {
      const res = await createTag(fx, fx.developer.token, name);
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(res.body).toEqual(CREATE_REFUSED);
    }
    for (const name of ['av1', 'V1', 'release-v1']) expect((await createTag(fx, fx.developer.token, name)).status, name).toBe(201);
    expect(await tagNames(fx)).toEqual(['V1', 'av1', 'release-v1']);
  });

  it('a middle wildcard and an exact name; regex characters in a pattern are literal', async () => {
    const fx = await setup();
    for (const name of ['rel-*-rc', 'exact', 'a.b*']) expect((await protect(fx, { name })).status).toBe(201);
    for (const name of ['rel-1-rc', 'rel--rc', 'rel-1/2-rc', 'exact', 'a.b', 'a.b.c'])
      expect((await createTag(fx, fx.developer.token, name)).body, name).toEqual(CREATE_REFUSED);
    for (const name of ['rel-1-rc2', 'exact2', 'axb', 'xa.b']) expect((await createTag(fx, fx.developer.token, name)).status, name).toBe(201);
  });

  it('maintainers create a protected tag (Tag entity protected: true) that nobody deletes; refusals write nothing', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    const pushesBefore = await tagPushes(fx);
    expect((await createTag(fx, fx.developer.token, 'v1')).body).toEqual(CREATE_REFUSED);
    expect(await tagNames(fx)).toEqual([]);
    expect(await tagPushes(fx)).toBe(pushesBefore);

    const created = await createTag(fx, fx.maintainer.token, 'v1');
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'v1', protected: true });
    expect((await createTag(fx, fx.developer.token, 'x1')).body).toMatchObject({ name: 'x1', protected: false });
    const listed = (await api.get(tagsUrl(fx), { token: fx.reporter.token, query: { order_by: 'name', sort: 'asc' } })).body as {
      name: string;
      protected: boolean;
    }[];
    expect(listed.map((t) => [t.name, t.protected])).toEqual([
      ['v1', true],
      ['x1', false],
    ]);
    expect((await api.get(tagsUrl(fx, '/v1'), { token: fx.reporter.token })).body).toMatchObject({ name: 'v1', protected: true });

    // The existing-name and target checks come before the protection, as Gitaly answers them before the hook.
    expect((await createTag(fx, fx.developer.token, 'v1')).body).toEqual({ message: 'Tag v1 already exists' });
    expect((await api.post(tagsUrl(fx), { token: fx.developer.token, body: { tag_name: 'v2', ref: 'nope' } })).body).toEqual({
      message: 'Target nope is invalid',
    });

    const pushes = await tagPushes(fx);
    const admin = await createAdmin();
    for (const token of [fx.developer.token, fx.maintainer.token, fx.owner.token, admin.token]) {
      const res = await api.delete(tagsUrl(fx, '/v1'), { token });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(DELETE_REFUSED);
    }
    expect(await tagNames(fx)).toEqual(['v1', 'x1']);
    expect(await tagPushes(fx)).toBe(pushes);
    // A missing tag is still 404 first; an unprotected one is deleted.
    expect((await api.delete(tagsUrl(fx, '/v9'), { token: fx.maintainer.token })).body).toEqual({ message: '404 Tag Not Found' });
    expect((await api.delete(tagsUrl(fx, '/x1'), { token: fx.developer.token })).status).toBe(204);
  });

  it('create level 30 lets developers create; 0 stops maintainers and administrators', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'dev-*', create_access_level: 30 })).status).toBe(201);
    expect((await protect(fx, { name: 'frozen*', create_access_level: 0 })).status).toBe(201);
    expect((await createTag(fx, fx.developer.token, 'dev-1')).body).toMatchObject({ name: 'dev-1', protected: true });
    const admin = await createAdmin();
    for (const token of [fx.developer.token, fx.maintainer.token, fx.owner.token, admin.token]) {
      expect((await createTag(fx, token, 'frozen-1')).body).toEqual(CREATE_REFUSED);
    }
    expect(await tagNames(fx)).toEqual(['dev-1']);
  });

  it('two matching rules: any one that the caller passes allows the tag', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    expect((await protect(fx, { name: 'v1.*', create_access_level: 30 })).status).toBe(201);
    expect((await createTag(fx, fx.developer.token, 'v1.0')).status).toBe(201);
    expect((await createTag(fx, fx.developer.token, 'v2.0')).body).toEqual(CREATE_REFUSED);
  });
});

const authFixture = async () => {
  const fx = await setup();
  expect((await protect(fx, { name: 'v*' })).status).toBe(201);
  const stranger = await createUser();
  return { ...fx, allowed: fx.maintainer.token, nonMember: stranger.token, insufficientRole: fx.developer.token };
};
const forbiddenFor = {
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
};
// find_project! before authorize_admin_project: a private project is not found for an anonymous read.
const anonymousRead = { anonymous: { status: 404, body: { message: '404 Project Not Found' } } };

describeAuthorization('GET /projects/:id/protected_tags', {
  fixture: authFixture,
  call: (fx, token) => api.get(url(fx), { token }),
  success: 200,
  ...anonymousRead,
  ...forbiddenFor,
});
describeAuthorization('GET /projects/:id/protected_tags/:name', {
  fixture: authFixture,
  call: (fx, token) => api.get(url(fx, '/v*'), { token }),
  success: 200,
  ...anonymousRead,
  ...forbiddenFor,
});
describeAuthorization('POST /projects/:id/protected_tags', {
  fixture: authFixture,
  call: (fx, token) => api.post(url(fx), { token, body: { name: `p-${Math.random().toString(36).slice(2)}` } }),
  success: 201,
  ...forbiddenFor,
});
describeAuthorization('DELETE /projects/:id/protected_tags/:name', {
  fixture: authFixture,
  call: (fx, token) => api.delete(url(fx, '/v*'), { token }),
  success: 204,
  ...forbiddenFor,
});

describe('authorization: refusals write nothing', () => {
  it('a developer and a reporter neither protect nor unprotect', async () => {
    const fx = await setup();
    expect((await protect(fx, { name: 'v*' })).status).toBe(201);
    for (const token of [fx.developer.token, fx.reporter.token]) {
      expect((await api.post(url(fx), { token, body: { name: 'other' } })).status).toBe(403);
      expect((await api.delete(url(fx, '/v*'), { token })).status).toBe(403);
    }
    expect((await list(fx)).map((p) => p.name)).toEqual(['v*']);
  });
});
