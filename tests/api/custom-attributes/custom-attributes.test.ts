// Custom attributes of users, groups and projects (GitLab 13.6): administrators set, list, read and delete them.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';

describe.each(['users', 'groups', 'projects'] as const)('custom attributes of %s', (kind) => {
  const owner = async (adminToken: string) => {
    if (kind === 'users') return (await createUser()).user.id;
    if (kind === 'groups') return (await createGroup(adminToken)).id;
    return (await createProject(adminToken)).id;
  };

  it('set (create, then change), list by key, read, delete; 404 for a missing key', async () => {
    const admin = await createAdmin();
    const id = await owner(admin.token);
    const base = `/${kind}/${id}/custom_attributes`;
    expect((await api.put(`${base}/zone`, { token: admin.token, body: { value: 'eu' } })).body).toEqual({ key: 'zone', value: 'eu' });
    expect((await api.put(`${base}/zone`, { token: admin.token, body: { value: 'us' } })).body).toEqual({ key: 'zone', value: 'us' });
    await api.put(`${base}/cost_center`, { token: admin.token, body: { value: '42' } });
    const list = await api.get(base, { token: admin.token });
    expect([list.status, list.body]).toEqual([
      200,
      [
        { key: 'cost_center', value: '42' },
        { key: 'zone', value: 'us' },
      ],
    ]);
    expect((await api.get(`${base}/zone`, { token: admin.token })).body).toEqual({ key: 'zone', value: 'us' });
    expect((await api.delete(`${base}/zone`, { token: admin.token })).status).toBe(204);
    const gone = await api.get(`${base}/zone`, { token: admin.token });
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
    const missing = await api.put(`${base}/zone`, { token: admin.token, body: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'value is missing' }]);
  });

  describeAuthorization(`PUT /${kind}/:id/custom_attributes/:key`, {
    fixture: async () => {
      const admin = await createAdmin();
      return { allowed: admin.token, id: await owner(admin.token), nonMember: (await createUser()).token };
    },
    call: (fx, token) => api.put(`/${kind}/${fx.id}/custom_attributes/k`, { token, body: { value: 'v' } }),
    success: 200,
    nonMember: { status: 403, body: { message: '403 Forbidden' } },
  });
});
