// Features API: administrators only, checked before the parameters (401 anonymous, 403 non-admin), and a read_api
// token cannot write (403 insufficient_scope, from the central scope table).
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createAdmin, createToken, createUser, unique } from '../../factories/users.ts';

const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };
const fixture = async () => ({ allowed: (await createAdmin()).token, nonMember: (await createUser()).token });

describeAuthorization('GET /features', { fixture, call: (_fx, token) => api.get('/features', { token }), success: 200, nonMember: FORBIDDEN });
describeAuthorization('GET /features/definitions', {
  fixture,
  call: (_fx, token) => api.get('/features/definitions', { token }),
  success: 200,
  nonMember: FORBIDDEN,
});
describeAuthorization('POST /features/:name', {
  fixture,
  call: (_fx, token) => api.post(`/features/${unique('auth_')}`, { token, form: { value: 'true' } }),
  success: 201,
  nonMember: FORBIDDEN,
});
describeAuthorization('DELETE /features/:name', {
  fixture,
  call: (_fx, token) => api.delete(`/features/${unique('auth_')}`, { token }),
  success: 204,
  nonMember: FORBIDDEN,
});

describe('features: who is checked before what', () => {
  it('a non-admin gets 403 even with missing or invalid parameters; anonymous gets 401', async () => {
    const { token } = await createUser();
    expect(await api.post('/features/Bad.Name', { token, form: {} })).toMatchObject(FORBIDDEN);
    expect(await api.post('/features/x', { form: {} })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('a read_api token of an administrator reads but cannot write', async () => {
    const { user } = await createAdmin();
    const readApi = await createToken(user, ['read_api']);
    expect((await api.get('/features', { token: readApi })).status).toBe(200);
    expect((await api.get('/features/definitions', { token: readApi })).status).toBe(200);
    for (const res of [
      await api.post(`/features/${unique('ro_')}`, { token: readApi, form: { value: 'true' } }),
      await api.delete(`/features/${unique('ro_')}`, { token: readApi }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
    }
  });
});
