// The Features API through @gitbeaker/rest, unmodified, against a served instance. @gitbeaker/rest 43.8 has no
// `Features` resource any more (only the project-level `FeatureFlags`), so the calls go through the configured
// requester every gitbeaker resource uses (same auth header, JSON bodies, error objects), with the thin wrapper
// below standing in for the old `gl.Features.all/set/remove`.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createAdmin, createUser, unique } from '../factories/users.ts';

/** gitbeaker's old Features resource (all, set, remove) over its own requester. */
function features(gl: InstanceType<typeof Gitlab>) {
  const requester = gl.Experiments.requester;
  const snake = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
  return {
    Features: {
      // Every page, following X-Next-Page as gitbeaker's RequestHelper does for list resources.
      all: async () => {
        const items: any[] = [];
        for (let page = '1'; page;) {
          const res = await requester.get('features', { searchParams: { page, per_page: '100' } });
          items.push(...(res.body as any[]));
          page = (res.headers as Record<string, string>)['x-next-page'] ?? '';
        }
        return items;
      },
      set: async (name: string, options: Record<string, unknown>) => (await requester.post(`features/${name}`, { body: snake(options) })).body as any,
      remove: async (name: string) => (await requester.delete(`features/${name}`, {})).status,
    },
  };
}

describe('@gitbeaker/rest Features against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('set (boolean, percentage, user), all, remove; a non-admin is refused', async () => {
    const admin = await createAdmin();
    const someone = await createUser();
    const gl = features(new Gitlab({ host: server.url, token: admin.token }));
    const name = unique('gb_');

    const on = await gl.Features.set(name, { value: true });
    expect(on).toEqual({ name, state: 'on', gates: [{ key: 'boolean', value: true }] });
    const off = await gl.Features.set(name, { value: false });
    expect(off).toEqual({ name, state: 'off', gates: [{ key: 'boolean', value: false }] });
    const pct = await gl.Features.set(name, { value: 25 });
    expect(pct).toEqual({
      name,
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 25 },
      ],
    });
    const actors = await gl.Features.set(name, { value: true, user: someone.user.username, featureGroup: 'admins' });
    expect(actors.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'groups', value: ['admins'] },
      { key: 'actors', value: [`User:${someone.user.id}`] },
      { key: 'percentage_of_time', value: 25 },
    ]);

    const all = await gl.Features.all();
    expect(all.find((f) => f.name === name)).toEqual(actors);

    expect(await gl.Features.remove(name)).toBe(204);
    expect((await gl.Features.all()).find((f) => f.name === name)).toBeUndefined();

    const error = await features(new Gitlab({ host: server.url, token: someone.token }))
      .Features.all()
      .then(
        () => null,
        (e: any) => e,
      );
    expect(error?.cause?.response?.status).toBe(403);
    const bad = await gl.Features.set(name, { value: 'wibble' }).then(
      () => null,
      (e: any) => e,
    );
    expect(bad?.cause?.response?.status).toBe(400);
    expect(bad?.cause?.description).toBe(`400 Bad request - Cannot set '${name}' to "wibble"`);
  });
});
