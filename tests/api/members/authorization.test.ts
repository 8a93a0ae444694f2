// The shared authorization suite for the members reads of projects and groups (writes: write.test.ts).
import { addMember, createGroup, type MemberSource } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

/** A source with a guest member (enough to read members) and a stranger. */
async function source(kind: MemberSource, visibility: 'private' | 'public') {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token, { visibility });
  const id = kind === 'groups' ? group.id : (await createProject(owner.token, { namespaceId: group.id, visibility })).id;
  await addMember(owner.token, kind, id, guest.user.id, 10);
  return { id, owner, guest, allowed: guest.token, nonMember: stranger.token };
}

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };

for (const kind of ['groups', 'projects'] as MemberSource[]) {
  const hidden = { status: 404, body: { message: kind === 'groups' ? '404 Group Not Found' : '404 Project Not Found' } };
  const reads: Array<[string, (fx: Awaited<ReturnType<typeof source>>) => string]> = [
    [`GET /${kind}/:id/members`, (fx) => `/${kind}/${fx.id}/members`],
    [`GET /${kind}/:id/members/all`, (fx) => `/${kind}/${fx.id}/members/all`],
    [`GET /${kind}/:id/members/:user_id`, (fx) => `/${kind}/${fx.id}/members/${fx.guest.user.id}`],
    [`GET /${kind}/:id/members/all/:user_id`, (fx) => `/${kind}/${fx.id}/members/all/${fx.owner.user.id}`],
  ];
  for (const [title, url] of reads) {
    describeAuthorization(`${title} (private source)`, {
      fixture: () => source(kind, 'private'),
      call: (fx, token) => api.get(url(fx), { token }),
      success: 200,
      anonymous: UNAUTHORIZED,
      nonMember: hidden,
    });

    // The members API wants a signed-in user even on public sources; any signed-in user may read them.
    if (title === reads[0]![0])
      describeAuthorization(`${title} (public source)`, {
        fixture: () => source(kind, 'public'),
        call: (fx, token) => api.get(url(fx), { token }),
        success: 200,
        anonymous: UNAUTHORIZED,
        nonMember: { status: 200 },
      });
  }
}
