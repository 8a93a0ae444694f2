// Tag writes through HTTP (GitLab 13.6 lib/api/tags.rb with Tags::CreateService/DestroyService): lightweight and
// annotated tags, the single-tag read, deletion, the refusals, push events with ref_type "tag", and who may do it.
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { sql } from 'drizzle-orm';
import { toBytes } from '../../../db/queries/repositories/refs.ts';
import { hashObject } from '../../../functions/repositories/git/oid.ts';
import { api, TEST_PUBLIC_URL, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { projectWithTeam } from './team-support.ts';

const setup = () => projectWithTeam('tag');
type Fx = Awaited<ReturnType<typeof setup>>;
const tagsUrl = (fx: Fx) => `/projects/${fx.project.id}/repository/tags`;
const names = async (fx: Fx) => ((await api.get(tagsUrl(fx), { token: fx.owner.token })).body as { name: string }[]).map((t) => t.name).sort();
const head = async (fx: Fx) => ((await api.get(`/projects/${fx.project.id}/repository/commits`, { token: fx.owner.token })).body as { id: string }[])[0]!.id;
const pushes = async (fx: Fx) =>
  (
    (await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'pushed' } })).body as {
      push_data: Record<string, unknown>;
    }[]
  ).map((e) => e.push_data);

describe('POST /projects/:id/repository/tags', () => {
  it('a lightweight tag: 201, target is the commit, message "", a created tag push event', async () => {
    const fx = await setup();
    const sha = await head(fx);
    const res = await api.post(tagsUrl(fx), { token: fx.developer.token, body: { tag_name: 'v1.0', ref: 'master' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'v1.0',
      message: '',
      target: sha,
      commit: { id: sha, title: 'Initial commit', web_url: `${TEST_PUBLIC_URL}/${fx.project.path_with_namespace}/-/commit/${sha}` },
      release: null,
      protected: false,
    });
    expect((await pushes(fx))[0]).toEqual({
      commit_count: 1,
      action: 'created',
      ref_type: 'tag',
      commit_from: null,
      commit_to: sha,
      ref: 'v1.0',
      commit_title: 'Initial commit',
      ref_count: null,
    });
    // The single read answers the same entity.
    const one = await api.get(`${tagsUrl(fx)}/v1.0`, { token: fx.reporter.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(res.body);
  });

  it("with a message: an annotated tag object, tagger the caller, listed, and stored as git's tag object", async () => {
    const fx = await setup();
    const sha = await head(fx);
    const res = await api.post(tagsUrl(fx), { token: fx.developer.token, body: { tag_name: 'release/2', ref: sha, message: '  Release two \n' } });
    expect(res.status, res.text).toBe(201);
    const tag = res.body as { target: string; message: string; commit: { id: string } };
    expect(tag.message).toBe('Release two');
    expect(tag.commit.id).toBe(sha);
    expect(tag.target).not.toBe(sha);
    expect(tag.target).toMatch(/^[0-9a-f]{40}$/);
    const listed = (await api.get(tagsUrl(fx), { token: fx.owner.token })).body as { name: string; message: string; target: string }[];
    expect(listed).toEqual([expect.objectContaining({ name: 'release/2', message: 'Release two', target: tag.target })]);
    // URL-encoded slash in the single read.
    expect((await api.get(`${tagsUrl(fx)}/release%2F2`, { token: fx.owner.token })).body).toMatchObject({ target: tag.target });
    expect((await pushes(fx))[0]).toMatchObject({ action: 'created', ref_type: 'tag', commit_to: tag.target, ref: 'release/2' });
    // The tag object is git's, addressed by its hash: the commit, the name, the developer as tagger, the message.
    const result = (await testDb().db.execute(sql`SELECT o.data FROM git_objects o JOIN repositories r ON r.pool_id = o.pool_id
      WHERE r.project_id = ${fx.project.id} AND o.oid = decode(${tag.target}, 'hex') AND o.type = 4`)) as unknown as { rows: { data: unknown }[] };
    const stored = result.rows[0];
    const body = toBytes(stored!.data);
    expect(await hashObject('tag', body)).toBe(tag.target);
    const text = new TextDecoder().decode(body);
    expect(text).toMatch(
      new RegExp(`^object ${sha}\ntype commit\ntag release/2\ntagger ${fx.developer.user.name} <${fx.developer.user.email}> \\d+ \\+0000\n\nRelease two$`),
    );
  });

  const refusals: [string, Record<string, unknown>, number, unknown][] = [
    ['an existing tag', { tag_name: 'v1', ref: 'master' }, 400, { message: 'Tag v1 already exists' }],
    ['an invalid name', { tag_name: 'a..b', ref: 'master' }, 400, { message: 'Tag name invalid' }],
    ['an empty name', { tag_name: '', ref: 'master' }, 400, { message: 'Tag name invalid' }],
    ['HEAD', { tag_name: 'HEAD', ref: 'master' }, 400, { message: 'Tag name invalid' }],
    ['a target that names nothing', { tag_name: 'x', ref: 'nope' }, 400, { message: 'Target nope is invalid' }],
    ['an existing name and a bad target (the target is checked first)', { tag_name: 'v1', ref: 'nope' }, 400, { message: 'Target nope is invalid' }],
    ['no tag_name', { ref: 'master' }, 400, { error: 'tag_name is missing' }],
    ['no ref', { tag_name: 'x' }, 400, { error: 'ref is missing' }],
  ];
  it.each(refusals)('refuses %s; nothing written', async (_t, body, status, expected) => {
    const fx = await setup();
    expect((await api.post(tagsUrl(fx), { token: fx.owner.token, body: { tag_name: 'v1', ref: 'master' } })).status).toBe(201);
    const before = await pushes(fx);
    const res = await api.post(tagsUrl(fx), { token: fx.owner.token, body });
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(expected);
    expect(await names(fx)).toEqual(['v1']);
    expect(await pushes(fx)).toEqual(before);
  });
});

describe('GET /projects/:id/repository/tags/:tag_name', () => {
  it('404 Tag Not Found for a missing tag, and for a name that is only a prefix of one', async () => {
    const fx = await setup();
    await api.post(tagsUrl(fx), { token: fx.owner.token, body: { tag_name: 'v10', ref: 'master' } });
    for (const name of ['v1', 'nope']) {
      const res = await api.get(`${tagsUrl(fx)}/${name}`, { token: fx.owner.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Tag Not Found' });
    }
  });
});

describe('DELETE /projects/:id/repository/tags/:tag_name', () => {
  it('204, the tag is gone, a removed tag push event', async () => {
    const fx = await setup();
    const sha = await head(fx);
    await api.post(tagsUrl(fx), { token: fx.owner.token, body: { tag_name: 'v1', ref: 'master', message: 'annotated' } });
    const res = await api.delete(`${tagsUrl(fx)}/v1`, { token: fx.developer.token });
    expect(res.status, res.text).toBe(204);
    expect(await names(fx)).toEqual([]);
    expect((await pushes(fx))[0]).toMatchObject({ commit_count: 0, action: 'removed', ref_type: 'tag', commit_to: null, ref: 'v1', commit_title: null });
    expect((await pushes(fx))[0]!.commit_from).not.toBe(sha);
  });

  it('404 Tag Not Found; nothing written', async () => {
    const fx = await setup();
    const before = await pushes(fx);
    const res = await api.delete(`${tagsUrl(fx)}/missing`, { token: fx.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Tag Not Found' });
    expect(await pushes(fx)).toEqual(before);
  });
});

describeAuthorization('POST /projects/:id/repository/tags', {
  fixture: async () => {
    const fx = await setup();
    const stranger = await createUser();
    return { ...fx, allowed: fx.developer.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.post(tagsUrl(fx), { token, body: { tag_name: `t-${Math.random().toString(36).slice(2)}`, ref: 'master' } }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});

describeAuthorization('DELETE /projects/:id/repository/tags/:tag_name', {
  fixture: async () => {
    const fx = await setup();
    await api.post(tagsUrl(fx), { token: fx.owner.token, body: { tag_name: 'v1', ref: 'master' } });
    const stranger = await createUser();
    return { ...fx, allowed: fx.developer.token, nonMember: stranger.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.delete(`${tagsUrl(fx)}/v1`, { token }),
  success: 204,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
  insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
});
