// The shared authorization suite for epics (Premium): reads follow the group (anonymous on public groups), writes
// need a reporter (delete: the owner), a hidden group is 404.
import { addMember, createGroup } from '../../factories/groups.ts';
import { createUser, unique } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { createEpic, PREMIUM } from './support.ts';

async function fixture(visibility: 'private' | 'public' = 'private') {
  const owner = await createUser();
  const reporter = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  const epic = await createEpic(owner.token, group.id);
  return { group, epic, owner, reporter, guest, nonMember: stranger.token };
}

const HIDDEN = { status: 404, body: { message: '404 Group Not Found' } };
const FORBIDDEN = { status: 403, body: { message: '403 Forbidden' } };

describeAuthorization('GET /groups/:id/epics (private)', {
  fixture: async () => {
    const fx = await fixture();
    return { ...fx, allowed: fx.guest.token };
  },
  call: (fx, token) => api.get(`/groups/${fx.group.id}/epics`, { token, env: PREMIUM }),
  success: 200,
  anonymous: HIDDEN,
  nonMember: HIDDEN,
});

describeAuthorization('GET /groups/:id/epics/:epic_iid (public)', {
  fixture: async () => {
    const fx = await fixture('public');
    return { ...fx, allowed: fx.nonMember };
  },
  call: (fx, token) => api.get(`/groups/${fx.group.id}/epics/${fx.epic.iid}`, { token, env: PREMIUM }),
  success: 200,
  anonymous: { status: 200 },
});

describeAuthorization('POST /groups/:id/epics', {
  fixture: async () => {
    const fx = await fixture();
    return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.post(`/groups/${fx.group.id}/epics`, { token, env: PREMIUM, body: { title: unique('e') } }),
  success: 201,
  nonMember: HIDDEN,
  insufficientRole: FORBIDDEN,
});

describeAuthorization('PUT /groups/:id/epics/:epic_iid', {
  fixture: async () => {
    const fx = await fixture();
    return { ...fx, allowed: fx.reporter.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.put(`/groups/${fx.group.id}/epics/${fx.epic.iid}`, { token, env: PREMIUM, body: { title: unique('e') } }),
  success: 200,
  nonMember: HIDDEN,
  insufficientRole: FORBIDDEN,
});

describeAuthorization('DELETE /groups/:id/epics/:epic_iid', {
  fixture: async () => {
    const fx = await fixture();
    return { ...fx, allowed: fx.owner.token, insufficientRole: fx.reporter.token };
  },
  call: (fx, token) => api.delete(`/groups/${fx.group.id}/epics/${fx.epic.iid}`, { token, env: PREMIUM }),
  success: 204,
  nonMember: HIDDEN,
  insufficientRole: FORBIDDEN,
});
