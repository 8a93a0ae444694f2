// The lazily mounted REST domains (functions/routes/mount.ts) register their routes from a generated manifest: it
// must list exactly the routes each domain's Hono app has, in order, or a route would be missing or call the wrong
// handler. `npm run routes:manifest` rewrites it.
import { describe, expect, it } from 'vitest';
import { ROUTE_MANIFEST } from '../../../functions/routes/manifest.ts';
import { currentManifest } from '../../../functions/routes/manifest-source.ts';
import { api } from '../../helpers/app.ts';

describe('REST route manifest', () => {
  it("matches every domain's routes (else run `npm run routes:manifest`)", async () => {
    expect(ROUTE_MANIFEST).toEqual(await currentManifest());
  });

  it('serves a lazily loaded domain through its real handlers (validation, 404, auth)', async () => {
    const bad = await api.get('/projects?visibility=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'visibility does not have a valid value' });
    const missing = await api.get('/projects/999999999/issues/1');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Project Not Found' });
    expect((await api.post('/projects', { body: { name: 'x' } })).status).toBe(401);
    expect((await api.get('/no-such-endpoint')).body).toEqual({ error: '404 Not Found' });
  });
});
