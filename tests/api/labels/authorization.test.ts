// The shared authorization suite for project and group labels: every endpoint wants a signed-in user (401), a
// hidden source is 404, writes need a reporter (403 for guests) and a token that may write (read_api: 403).
import { expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createLabel, type LabelSource } from '../../factories/labels.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

async function source(kind: LabelSource, visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  const id = kind === 'groups' ? group.id : (await createProject(owner.token, { namespaceId: group.id, visibility })).id;
  await addMember(owner.token, kind, id, reporter.user.id, 20);
  await addMember(owner.token, kind, id, guest.user.id, 10);
  const label = await createLabel(owner.token, kind, id);
  return { id, label, owner, reporter, guest, stranger, nonMember: stranger.token };
}

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

for (const kind of ['projects', 'groups'] as LabelSource[]) {
  const hidden = { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } };

  describeAuthorization(`GET /${kind}/:id/labels (private)`, {
    fixture: async () => {
      const fx = await source(kind);
      return { ...fx, allowed: fx.guest.token };
    },
    call: (fx, token) => api.get(`/${kind}/${fx.id}/labels`, { token }),
    success: 200,
    anonymous: UNAUTHORIZED,
    nonMember: hidden,
  });

  describeAuthorization(`GET /${kind}/:id/labels/:label_id (public: anonymous still 401)`, {
    fixture: async () => {
      const fx = await source(kind, 'public');
      return { ...fx, allowed: fx.stranger.token };
    },
    call: (fx, token) => api.get(`/${kind}/${fx.id}/labels/${fx.label.id}`, { token }),
    success: 200,
    anonymous: UNAUTHORIZED,
  });

  describeAuthorization(`POST /${kind}/:id/labels`, {
    fixture: async () => {
      const fx = await source(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.post(`/${kind}/${fx.id}/labels`, { token, body: { name: unique('l'), color: '#fff' } }),
    success: 201,
    anonymous: UNAUTHORIZED,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`PUT /${kind}/:id/labels/:label_id`, {
    fixture: async () => {
      const fx = await source(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.put(`/${kind}/${fx.id}/labels/${fx.label.id}`, { token, body: { color: '#000' } }),
    success: 200,
    anonymous: UNAUTHORIZED,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  describeAuthorization(`DELETE /${kind}/:id/labels/:label_id`, {
    fixture: async () => {
      const fx = await source(kind);
      return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
    },
    call: (fx, token) => api.delete(`/${kind}/${fx.id}/labels/${fx.label.id}`, { token }),
    success: 204,
    anonymous: UNAUTHORIZED,
    nonMember: hidden,
    insufficientRole: FORBIDDEN,
  });

  it(`${kind}: a read_api token reads labels but cannot write them (403)`, async () => {
    const fx = await source(kind);
    const token = await createToken(fx.owner.user, ['read_api']);
    expect((await api.get(`/${kind}/${fx.id}/labels`, { token })).status).toBe(200);
    const res = await api.post(`/${kind}/${fx.id}/labels`, { token, body: { name: unique('l'), color: '#fff' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });
}
