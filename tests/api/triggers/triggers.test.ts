// Pipeline triggers CRUD (GitLab 13.6 lib/api/triggers.rb): maintainers manage them, only the owner changes one, the
// token is shown in full once (stored as a digest) and as its first 4 characters afterwards.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { countTriggers, createTrigger, ISO, triggerFixture, userBasic } from './support.ts';

const KEYS = ['id', 'token', 'description', 'created_at', 'updated_at', 'last_used', 'owner'];

describe('POST /projects/:id/triggers', () => {
  it('creates a trigger owned by the caller and shows its full token once', async () => {
    const fx = await triggerFixture();
    const res = await api.post(`/projects/${fx.project.id}/triggers`, { token: fx.maintainer.token, body: { description: 'nightly' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^[0-9a-f]{30}$/),
      description: 'nightly',
      created_at: ISO,
      updated_at: ISO,
      last_used: null,
      owner: userBasic(fx.maintainer.user),
    });
    const again = await api.get(`/projects/${fx.project.id}/triggers/${res.body.id}`, { token: fx.maintainer.token });
    expect([again.status, again.body]).toEqual([200, { ...res.body, token: res.body.token.slice(0, 4) }]);
  });

  it('each trigger gets its own token', async () => {
    const fx = await triggerFixture();
    const [a, b] = [await createTrigger(fx.owner.token, fx.project.id), await createTrigger(fx.owner.token, fx.project.id)];
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    [{}, 400, { error: 'description is missing' }],
    [{ description: 'x'.repeat(256) }, 400, { message: { description: ['is too long (maximum is 255 characters)'] } }],
  ])('refuses %j and stores nothing', async (body, status, answer) => {
    const fx = await triggerFixture();
    const res = await api.post(`/projects/${fx.project.id}/triggers`, { token: fx.owner.token, body });
    expect([res.status, res.body]).toEqual([status, answer]);
    expect(await countTriggers(fx.owner.token, fx.project.id)).toBe(0);
  });
});

describe('GET /projects/:id/triggers', () => {
  it('lists triggers in id order with the token prefix, paginated', async () => {
    const fx = await triggerFixture();
    const a = await createTrigger(fx.owner.token, fx.project.id, 'a');
    const b = await createTrigger(fx.maintainer.token, fx.project.id, 'b');
    const all = await api.get(`/projects/${fx.project.id}/triggers`, { token: fx.owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { id: a.id, token: a.token.slice(0, 4), description: 'a', created_at: ISO, updated_at: ISO, last_used: null, owner: userBasic(fx.owner.user) },
      { id: b.id, token: b.token.slice(0, 4), description: 'b', created_at: ISO, updated_at: ISO, last_used: null, owner: userBasic(fx.maintainer.user) },
    ]);
    const page = await api.get(`/projects/${fx.project.id}/triggers`, { token: fx.owner.token, query: { per_page: 1, page: 2 } });
    expect(page.body.map((t: { id: number }) => t.id)).toEqual([b.id]);
    expect(['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'].map((h) => page.headers.get(h))).toEqual([
      '2',
      '2',
      '2',
      '1',
      '',
      '1',
    ]);
  });
});

describe('GET /projects/:id/triggers/:trigger_id', () => {
  it('answers 404 Not found for a trigger the project does not have, 400 for a non-integer id', async () => {
    const fx = await triggerFixture();
    const other = await triggerFixture();
    const foreign = await createTrigger(other.owner.token, other.project.id);
    for (const id of [foreign.id, 999999999, -5]) {
      const res = await api.get(`/projects/${fx.project.id}/triggers/${id}`, { token: fx.owner.token });
      expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }]);
    }
    const bad = await api.get(`/projects/${fx.project.id}/triggers/abc`, { token: fx.owner.token });
    expect([bad.status, bad.body]).toEqual([400, { error: 'trigger_id is invalid' }]);
  });
});

describe('PUT /projects/:id/triggers/:trigger_id', () => {
  it('lets the owner change the description', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.maintainer.token, fx.project.id, 'old');
    const res = await api.put(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.maintainer.token, body: { description: 'new' } });
    expect([res.status, res.body]).toEqual([
      200,
      { id: t.id, token: t.token.slice(0, 4), description: 'new', created_at: ISO, updated_at: ISO, last_used: null, owner: userBasic(fx.maintainer.user) },
    ]);
    const unchanged = await api.put(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.maintainer.token, body: {} });
    expect([unchanged.status, unchanged.body]).toEqual([200, res.body]);
  });

  it('refuses other maintainers and developers (403) and changes nothing', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.maintainer.token, fx.project.id, 'kept');
    for (const token of [fx.owner.token, fx.developer.token]) {
      const res = await api.put(`/projects/${fx.project.id}/triggers/${t.id}`, { token, body: { description: 'changed' } });
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
    }
    expect((await api.get(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.owner.token })).body.description).toBe('kept');
  });
});

describe('DELETE /projects/:id/triggers/:trigger_id', () => {
  it('deletes any trigger of the project for a maintainer (204)', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.maintainer.token, fx.project.id);
    const res = await api.delete(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.owner.token });
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await api.get(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.owner.token })).status).toBe(404);
    const again = await api.delete(`/projects/${fx.project.id}/triggers/${t.id}`, { token: fx.owner.token });
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it('answers 412 when the trigger changed after If-Unmodified-Since', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.owner.token, fx.project.id);
    const res = await api.delete(`/projects/${fx.project.id}/triggers/${t.id}`, {
      token: fx.owner.token,
      headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2018 00:00:00 GMT' },
    });
    expect(res.status).toBe(412);
    expect(await countTriggers(fx.owner.token, fx.project.id)).toBe(1);
  });
});

describe('authorization', () => {
  const calls = (projectId: number, triggerId: number) =>
    [
      ['GET', `/projects/${projectId}/triggers`, undefined],
      ['GET', `/projects/${projectId}/triggers/${triggerId}`, undefined],
      ['POST', `/projects/${projectId}/triggers`, { description: 'x' }],
      ['PUT', `/projects/${projectId}/triggers/${triggerId}`, { description: 'x' }],
      ['DELETE', `/projects/${projectId}/triggers/${triggerId}`, undefined],
    ] as const;
  const send = (method: string, path: string, token: string | undefined, body: unknown) =>
    method === 'GET'
      ? api.get(path, { token })
      : method === 'POST'
        ? api.post(path, { token, body })
        : method === 'PUT'
          ? api.put(path, { token, body })
          : api.delete(path, { token });

  it('anonymous 401, stranger 404, developer and reporter 403; nothing changes', async () => {
    const fx = await triggerFixture();
    const t = await createTrigger(fx.owner.token, fx.project.id, 'kept');
    for (const [method, path, body] of calls(fx.project.id, t.id)) {
      const answers = [
        [undefined, 401, { message: '401 Unauthorized' }],
        [fx.stranger.token, 404, { message: '404 Project Not Found' }],
        [fx.developer.token, 403, { message: '403 Forbidden' }],
        [fx.reporter.token, 403, { message: '403 Forbidden' }],
      ] as const;
      for (const [token, status, answer] of answers) {
        const res = await send(method, path, token, body);
        expect([method, path, res.status, res.body]).toEqual([method, path, status, answer]);
      }
    }
    const list = await api.get(`/projects/${fx.project.id}/triggers`, { token: fx.owner.token });
    expect(list.body.map((x: { description: string }) => x.description)).toEqual(['kept']);
  });
});
