// Ids outside the integer column's range never reach Postgres: a parent that cannot exist is a group that is not
// found; a skip list with such an id is a parameter error.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { namespaces } from '../../../db/schema/index.ts';
import { createGroup } from '../../factories/groups.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const HUGE = '99999999999';

describe('group ids out of the integer range', () => {
  it('POST /groups with parent_id 99999999999 (or any id no group has): 404 Group Not Found, nothing created', async () => {
    const { token } = await createUser();
    for (const parent_id of [HUGE, Number(HUGE), '2147483648', -5]) {
      const path = unique('orphan');
      const res = await api.post('/groups', { token, body: { name: 'x', path, parent_id } });
      expect(res.status, String(parent_id)).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
      expect(await testDb().db.select().from(namespaces).where(eq(namespaces.path, path))).toEqual([]);
    }
    const form = await api.post('/groups', { token, form: { name: 'x', path: unique('orphan'), parent_id: HUGE } });
    expect(form.status).toBe(404);
  });

  it('GET /groups and /groups/:id/subgroups with skip_groups[]=99999999999: 400 does not have a valid value', async () => {
    const { token } = await createUser();
    const parent = await createGroup(token);
    for (const path of ['/groups', `/groups/${parent.id}/subgroups`]) {
      for (const skip of [[HUGE], [String(parent.id), HUGE], ['0']]) {
        const res = await api.get(path, { token, query: { 'skip_groups[]': skip } });
        expect(res.status, `${path} ${skip}`).toBe(400);
        expect(res.body).toEqual({ error: 'skip_groups does not have a valid value' });
      }
      expect((await api.get(path, { token, query: { 'skip_groups[]': ['2147483647'] } })).status).toBe(200);
    }
  });

  it('GET /groups/:id with an id out of range: 404 Group Not Found', async () => {
    const { token } = await createUser();
    for (const suffix of ['', '/subgroups', '/projects']) {
      const res = await api.get(`/groups/${HUGE}${suffix}`, { token });
      expect(res.status, suffix).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
  });
});
