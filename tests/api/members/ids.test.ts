// Ids outside the integer column's range never reach Postgres: lookups answer GitLab's not-found, filters a
// parameter error.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members } from '../../../db/schema/index.ts';
import { addMember, createGroup, type MemberSource } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const HUGE = '99999999999';

async function source(kind: MemberSource) {
  const owner = await createUser();
  const developer = await createUser();
  const group = await createGroup(owner.token);
  const id = kind === 'groups' ? group.id : (await createProject(owner.token, { namespaceId: group.id })).id;
  await addMember(owner.token, kind, id, developer.user.id, 30);
  const type = kind === 'groups' ? ('Namespace' as const) : ('Project' as const);
  const rows = () =>
    testDb()
      .db.select()
      .from(members)
      .where(and(eq(members.sourceType, type), eq(members.sourceId, id)))
      .orderBy(members.id);
  return { owner, developer, id, rows };
}

for (const kind of ['groups', 'projects'] as MemberSource[]) {
  describe(`/${kind}/:id/members with ids out of the integer range`, () => {
    it(':user_id in the path: 404 Not found (GET, GET all, PUT, DELETE), nothing changes', async () => {
      const fx = await source(kind);
      const before = await fx.rows();
      const token = fx.owner.token;
      for (const ref of [HUGE, '2147483648', '-5', '0']) {
        const calls = [
          () => api.get(`/${kind}/${fx.id}/members/${ref}`, { token }),
          () => api.get(`/${kind}/${fx.id}/members/all/${ref}`, { token }),
          () => api.put(`/${kind}/${fx.id}/members/${ref}`, { token, body: { access_level: 20 } }),
          () => api.delete(`/${kind}/${fx.id}/members/${ref}`, { token }),
        ];
        for (const call of calls) {
          const res = await call();
          expect(res.status, `${ref}: ${res.text}`).toBe(404);
          expect(res.body).toEqual({ message: '404 Not found' });
        }
      }
      expect(await fx.rows()).toEqual(before);
    });

    it('the source is still checked first: a hidden source is 404 of its kind', async () => {
      const fx = await source(kind);
      const { token: stranger } = await createUser();
      const res = await api.put(`/${kind}/${fx.id}/members/${HUGE}`, { token: stranger, body: { access_level: 20 } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' });
    });

    it('user_id in the body: 404 User Not Found, as for any user that does not exist', async () => {
      const fx = await source(kind);
      const before = await fx.rows();
      for (const user_id of [HUGE, Number(HUGE), '2147483648']) {
        const res = await api.post(`/${kind}/${fx.id}/members`, { token: fx.owner.token, body: { user_id, access_level: 30 } });
        expect(res.status, String(user_id)).toBe(404);
        expect(res.body).toEqual({ message: '404 User Not Found' });
      }
      expect(await fx.rows()).toEqual(before);
    });

    it('user_ids[] filter: 400 does not have a valid value (list and /all)', async () => {
      const fx = await source(kind);
      for (const path of [`/${kind}/${fx.id}/members`, `/${kind}/${fx.id}/members/all`]) {
        for (const ids of [[HUGE], [String(fx.developer.user.id), HUGE], ['0']]) {
          const res = await api.get(path, { token: fx.owner.token, query: { 'user_ids[]': ids } });
          expect(res.status, `${path} ${ids}`).toBe(400);
          expect(res.body).toEqual({ error: 'user_ids does not have a valid value' });
        }
        const ok = await api.get(path, { token: fx.owner.token, query: { 'user_ids[]': [String(fx.developer.user.id)] } });
        expect(ok.body.map((m: { id: number }) => m.id)).toEqual([fx.developer.user.id]);
      }
    });
  });
}
