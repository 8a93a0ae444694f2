// The shared authorization suite for award emoji: reads follow the awardable's visibility (anonymous callers read
// public projects), awarding wants a signed-in user allowed to award (404 `Award Emoji Not Found` otherwise, as
// GitLab), removing is the awarder's (others 401, as GitLab's `unauthorized!`).
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createToken, createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } };
const PROJECT_NOT_FOUND = { status: 404, body: { message: '404 Project Not Found' } };
const ISSUE_NOT_FOUND = { status: 404, body: { message: '404 Issue Not Found' } };
const AWARD_NOT_FOUND = { status: 404, body: { message: '404 Award Emoji Not Found' } };

async function issueFixture(visibility: 'public' | 'private', issue: Record<string, unknown> = {}, awarder: 'owner' | 'guest' = 'guest') {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility });
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const created = await createIssue(owner.token, project.id, issue);
  const url = `/projects/${project.id}/issues/${created.iid}/award_emoji`;
  const award = await api.post(url, { token: (awarder === 'owner' ? owner : guest).token, body: { name: 'tada' } });
  if (award.status !== 201) throw new Error(`award failed: ${award.status} ${award.text}`);
  return { owner, guest, stranger, url, awardId: award.body.id as number };
}

describeAuthorization('GET award_emoji of a private project’s issue', {
  fixture: async () => {
    const fx = await issueFixture('private');
    return { ...fx, allowed: fx.guest.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.get(fx.url, { token }),
  success: 200,
  anonymous: PROJECT_NOT_FOUND,
  nonMember: PROJECT_NOT_FOUND,
});

describeAuthorization('GET award_emoji/:award_id of a confidential issue', {
  fixture: async () => {
    const fx = await issueFixture('public', { confidential: true }, 'owner');
    return { ...fx, allowed: fx.owner.token, nonMember: fx.stranger.token, insufficientRole: fx.guest.token };
  },
  call: (fx, token) => api.get(`${fx.url}/${fx.awardId}`, { token }),
  success: 200,
  anonymous: ISSUE_NOT_FOUND,
  nonMember: ISSUE_NOT_FOUND,
  insufficientRole: ISSUE_NOT_FOUND,
});

describeAuthorization('POST award_emoji on a locked issue of a public project', {
  fixture: async () => {
    const fx = await issueFixture('public');
    await api.put(fx.url.replace(/\/award_emoji$/, ''), { token: fx.owner.token, body: { discussion_locked: true } });
    return { ...fx, allowed: fx.guest.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.post(fx.url, { token, body: { name: 'rocket' } }),
  success: 201,
  anonymous: UNAUTHORIZED,
  nonMember: AWARD_NOT_FOUND,
});

describeAuthorization('POST award_emoji with a read_api token', {
  fixture: async () => {
    const fx = await issueFixture('public');
    return { ...fx, allowed: fx.stranger.token, insufficientRole: await createToken(fx.stranger.user, ['read_api']) };
  },
  call: (fx, token) => api.post(fx.url, { token, body: { name: 'rocket' } }),
  success: 201,
  insufficientRole: { status: 403 },
});

describeAuthorization('DELETE award_emoji/:award_id', {
  fixture: async () => {
    const fx = await issueFixture('public');
    return { ...fx, allowed: fx.guest.token, otherUser: fx.owner.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.delete(`${fx.url}/${fx.awardId}`, { token }),
  success: 204,
  otherUser: UNAUTHORIZED,
  nonMember: UNAUTHORIZED,
});
