// Merge request events in the three listings (GitLab 13.6 Event, EventsFinder, Entities::Event): opened (created),
// closed, reopened, merged ("accepted") and comments on MRs; target_type "MergeRequest" with target_iid and
// target_title; the target_type=merge_request and action=merged filters; read_merge_request (download_code) decides
// who sees them: a guest of a private project sees none of them, a stranger of a public project all.
import { describe, expect, it } from 'vitest';
import { insertNote } from '../../../db/queries/notes.ts';
import { insertTestEvent } from '../../factories/events.ts';
import { addMember } from '../../factories/groups.ts';
import { createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { mrProject, mrs, openMergeRequest } from './support.ts';

type Ev = {
  id: number;
  action_name: string;
  target_type: string | null;
  target_id: number | null;
  target_iid: number | null;
  target_title: string | null;
  note?: { noteable_type: string; body: string };
};

async function setup() {
  const fx = await mrProject('mrevents');
  const guest = await createUser();
  const stranger = await createUser();
  await addMember(fx.owner.token, 'projects', fx.project.id, guest.user.id, 10);
  const mr = await openMergeRequest(fx, { title: 'Edit the list' });
  const url = `${mrs(fx)}/${mr.iid}`;
  for (const state_event of ['close', 'reopen']) {
    const res = await api.put(url, { token: fx.owner.token, body: { state_event } });
    expect(res.status, res.text).toBe(200);
  }
  const merged = await api.put(`${url}/merge`, { token: fx.owner.token });
  expect(merged.status, merged.text).toBe(200);
  // A comment on the MR, with its event as the notes domain records it (EventCreateService#leave_note).
  const note = await insertNote(testDb().db, {
    noteableType: 'MergeRequest',
    noteableId: mr.id,
    projectId: fx.project.id,
    authorId: fx.owner.user.id,
    body: 'Ship it',
  });
  await insertTestEvent({ action: 'commented', authorId: fx.owner.user.id, projectId: fx.project.id, targetType: 'Note', targetId: note.id });
  return { ...fx, guest, stranger, mr, url, note };
}

const mrEvents = (body: Ev[]) => body.filter((e) => e.target_type === 'MergeRequest' || e.note?.noteable_type === 'MergeRequest');

describe('merge request events', () => {
  it('opened, closed, reopened, merged and commented, with target_type, target_iid and target_title', async () => {
    const fx = await setup();
    const res = await api.get(`/projects/${fx.project.id}/events`, { token: fx.reporter.token, query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const events = mrEvents(res.body);
    expect(events.map((e) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual([
      ['commented on', 'Note', fx.note.id, fx.note.id, null],
      ['accepted', 'MergeRequest', fx.mr.id, fx.mr.iid, 'Edit the list'],
      ['opened', 'MergeRequest', fx.mr.id, fx.mr.iid, 'Edit the list'],
      ['closed', 'MergeRequest', fx.mr.id, fx.mr.iid, 'Edit the list'],
      ['opened', 'MergeRequest', fx.mr.id, fx.mr.iid, 'Edit the list'],
    ]);
    expect(events[0]!.note).toMatchObject({ body: 'Ship it', noteable_type: 'MergeRequest', noteable_id: fx.mr.id });
    expect(res.body.find((e: Ev) => e.action_name === 'accepted')).toMatchObject({
      project_id: fx.project.id,
      author_id: fx.owner.user.id,
      author_username: fx.owner.user.username,
    });
  });

  it('target_type=merge_request and action=merged filter', async () => {
    const fx = await setup();
    const byType = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { target_type: 'merge_request' } });
    expect(byType.status).toBe(200);
    expect(byType.body.map((e: Ev) => e.action_name)).toEqual(['accepted', 'opened', 'closed', 'opened']);
    expect(byType.headers.get('x-total')).toBe('4');
    const merged = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { action: 'merged' } });
    expect(merged.body.map((e: Ev) => [e.action_name, e.target_iid])).toEqual([['accepted', fx.mr.iid]]);
    const own = await api.get('/events', { token: fx.owner.token, query: { target_type: 'merge_request', action: 'merged' } });
    expect(own.body.map((e: Ev) => e.target_id)).toEqual([fx.mr.id]);
    const user = await api.get(`/users/${fx.owner.user.id}/events`, { token: fx.reporter.token, query: { target_type: 'merge_request' } });
    expect(user.body.map((e: Ev) => e.action_name)).toEqual(['accepted', 'opened', 'closed', 'opened']);
  });

  it('a guest of the private project sees no MR event nor comment on an MR, in any listing', async () => {
    const fx = await setup();
    const project = await api.get(`/projects/${fx.project.id}/events`, { token: fx.guest.token, query: { per_page: 100 } });
    expect(project.status).toBe(200);
    expect(project.body.length).toBeGreaterThan(0);
    expect(mrEvents(project.body)).toEqual([]);
    const typed = await api.get(`/projects/${fx.project.id}/events`, { token: fx.guest.token, query: { target_type: 'merge_request' } });
    expect(typed.body).toEqual([]);
    const user = await api.get(`/users/${fx.owner.user.id}/events`, { token: fx.guest.token, query: { per_page: 100 } });
    expect(mrEvents(user.body)).toEqual([]);
    // The same rule as a single MR: 403 for the guest, 200 for the reporter.
    expect((await api.get(fx.url, { token: fx.guest.token })).status).toBe(403);
    expect((await api.get(fx.url, { token: fx.reporter.token })).status).toBe(200);
    // A stranger sees nothing of the private project.
    expect((await api.get(`/projects/${fx.project.id}/events`, { token: fx.stranger.token })).status).toBe(404);
    expect(mrEvents((await api.get(`/users/${fx.owner.user.id}/events`, { token: fx.stranger.token })).body)).toEqual([]);
  });

  it('on a public project anyone who reads the code sees them', async () => {
    const fx = await setup();
    const res = await api.put(`/projects/${fx.project.id}`, { token: fx.owner.token, body: { visibility: 'public' } });
    expect(res.status, res.text).toBe(200);
    const seen = await api.get(`/projects/${fx.project.id}/events`, { token: fx.stranger.token, query: { target_type: 'merge_request' } });
    expect(seen.body.map((e: Ev) => e.action_name)).toEqual(['accepted', 'opened', 'closed', 'opened']);
    const anonymous = await api.get(`/projects/${fx.project.id}/events`, { query: { per_page: 100 } });
    expect(mrEvents(anonymous.body)).toHaveLength(5);
  });

  it('an event whose merge request is gone is hidden', async () => {
    const fx = await setup();
    const res = await api.delete(fx.url, { token: fx.owner.token });
    expect(res.status, res.text).toBe(204);
    const after = await api.get(`/projects/${fx.project.id}/events`, { token: fx.owner.token, query: { per_page: 100 } });
    expect(mrEvents(after.body)).toEqual([]);
  });
});
