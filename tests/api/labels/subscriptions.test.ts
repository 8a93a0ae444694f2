// Label subscriptions (GitLab 13.6 lib/api/subscriptions.rb over Label): POST /{projects,groups}/:id/labels/:label_id
// /subscribe and /unsubscribe, by id or title; 201 with the label entity and the caller's `subscribed`, 304 when it
// already was so; the listing and the single label show the caller's subscription at the source's level.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptions } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createLabel } from '../../factories/labels.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';

async function setup() {
  const owner = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, { namespaceId: group.id });
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const label = await createLabel(owner.token, 'projects', project.id);
  const groupLabel = await createLabel(owner.token, 'groups', group.id);
  return { owner, guest, stranger, group, project, label, groupLabel };
}

const rowsOf = async (labelId: number) =>
  testDb()
    .db.select()
    .from(subscriptions)
    .where(and(eq(subscriptions.subscribableType, 'Label'), eq(subscriptions.subscribableId, labelId)));

describe('project label subscriptions', () => {
  it('subscribe by id, 304 again; unsubscribe by title, 304 again; list and get show it', async () => {
    const fx = await setup();
    const base = `/projects/${fx.project.id}/labels`;
    const on = await api.post(`${base}/${fx.label.id}/subscribe`, { token: fx.guest.token });
    expect(on.status, on.text).toBe(201);
    expect(on.body).toMatchObject({ id: fx.label.id, name: fx.label.name, subscribed: true, is_project_label: true });
    expect((await api.post(`${base}/${fx.label.id}/subscribe`, { token: fx.guest.token })).status).toBe(304);
    expect((await api.get(`${base}/${fx.label.id}`, { token: fx.guest.token })).body.subscribed).toBe(true);
    // Someone else's view is their own.
    expect((await api.get(`${base}/${fx.label.id}`, { token: fx.owner.token })).body.subscribed).toBe(false);
    const list = await api.get(base, { token: fx.guest.token });
    expect(list.body.map((l: { id: number; subscribed: boolean }) => [l.id, l.subscribed]).sort()).toEqual(
      [
        [fx.label.id, true],
        [fx.groupLabel.id, false],
      ].sort(),
    );
    const off = await api.post(`${base}/${encodeURIComponent(fx.label.name)}/unsubscribe`, { token: fx.guest.token });
    expect(off.status, off.text).toBe(201);
    expect(off.body).toMatchObject({ id: fx.label.id, subscribed: false });
    expect((await api.post(`${base}/${fx.label.id}/unsubscribe`, { token: fx.guest.token })).status).toBe(304);
    expect((await rowsOf(fx.label.id)).map((r) => [r.userId, r.projectId, r.subscribed])).toEqual([[fx.guest.user.id, fx.project.id, false]]);
  });

  it("an ancestor group's label through the project is the project's subscription, not the group's", async () => {
    const fx = await setup();
    const res = await api.post(`/projects/${fx.project.id}/labels/${fx.groupLabel.id}/subscribe`, { token: fx.owner.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: fx.groupLabel.id, subscribed: true, is_project_label: false });
    expect((await api.get(`/groups/${fx.group.id}/labels/${fx.groupLabel.id}`, { token: fx.owner.token })).body.subscribed).toBe(false);
    const group = await api.post(`/groups/${fx.group.id}/labels/${fx.groupLabel.id}/subscribe`, { token: fx.owner.token });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ id: fx.groupLabel.id, subscribed: true });
    expect(group.body).not.toHaveProperty('is_project_label');
    expect((await api.post(`/groups/${fx.group.id}/labels/${fx.groupLabel.id}/subscribe`, { token: fx.owner.token })).status).toBe(304);
  });

  it('missing labels 404; hidden projects 404; anonymous 401; nothing written', async () => {
    const fx = await setup();
    const base = `/projects/${fx.project.id}/labels`;
    expect(await api.post(`${base}/nope/subscribe`, { token: fx.owner.token })).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
    expect(await api.post(`${base}/${fx.label.id}/subscribe`, { token: fx.stranger.token })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect((await api.post(`${base}/${fx.label.id}/subscribe`)).status).toBe(401);
    expect(await rowsOf(fx.label.id)).toEqual([]);
  });

  it('deleting the label removes its subscriptions', async () => {
    const fx = await setup();
    expect((await api.post(`/projects/${fx.project.id}/labels/${fx.label.id}/subscribe`, { token: fx.owner.token })).status).toBe(201);
    expect((await api.delete(`/projects/${fx.project.id}/labels/${fx.label.id}`, { token: fx.owner.token })).status).toBe(204);
    expect(await rowsOf(fx.label.id)).toEqual([]);
  });
});

describeAuthorization('POST /projects/:id/labels/:label_id/subscribe', {
  fixture: async () => {
    const fx = await setup();
    return { ...fx, allowed: fx.guest.token, nonMember: fx.stranger.token };
  },
  call: (fx, token) => api.post(`/projects/${fx.project.id}/labels/${fx.label.id}/subscribe`, { token }),
  success: 201,
  nonMember: { status: 404, body: { message: '404 Project Not Found' } },
});
