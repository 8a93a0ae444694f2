// Event visibility by target, after pagination (Event#visible_to_user?): comments on project snippets follow the
// snippet's own visibility, pushes need download_code; a deleted milestone's events stay, without a target id.
import { describe, expect, it } from 'vitest';
import { insertTestEvent } from '../../factories/events.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet } from '../../factories/snippets.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

const seen = async (projectId: number, token: string | undefined, query: Record<string, string> = {}) => {
  const res = await api.get(`/projects/${projectId}/events`, { token, query: { per_page: '100', sort: 'asc', ...query } });
  expect(res.status).toBe(200);
  return { actions: res.body.map((e: any) => [e.action_name, e.target_type, e.target_title]), total: res.headers.get('x-total') };
};

describe('event visibility by target', () => {
  it('comments on a private snippet of a public project: members only', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const stranger = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
    const open = await createProjectSnippet(owner.token, p.id, { visibility: 'public', title: 'Open' });
    const closed = await createProjectSnippet(owner.token, p.id, { visibility: 'private', title: 'Closed' });
    for (const s of [open, closed]) {
      const res = await api.post(`/projects/${p.id}/snippets/${s.id}/notes`, { token: owner.token, body: { body: `on ${s.title}` } });
      expect(res.status, res.text).toBe(201);
    }
    const comments = [
      ['commented on', 'Note', null],
      ['commented on', 'Note', null],
    ];
    expect(await seen(p.id, guest.token, { action: 'commented' })).toEqual({ actions: comments, total: '2' });
    expect(await seen(p.id, stranger.token, { action: 'commented' })).toEqual({ actions: comments.slice(0, 1), total: '2' });
    expect(await seen(p.id, undefined, { action: 'commented' })).toEqual({ actions: comments.slice(0, 1), total: '2' });
    const shown = await api.get(`/projects/${p.id}/events`, { token: stranger.token, query: { action: 'commented' } });
    expect(shown.body[0].note).toMatchObject({ body: 'on Open', noteable_type: 'Snippet', noteable_id: open.id, noteable_iid: null });
  });

  it('pushes to a private project: reporters and above (download_code), not guests', async () => {
    const owner = await createUser();
    const guest = await createUser();
    const reporter = await createUser();
    const p = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
    await addMember(owner.token, 'projects', p.id, reporter.user.id, 20);
    const push = {
      commitCount: 1,
      action: 2 as const,
      refType: 0 as const,
      commitFrom: 'a'.repeat(40),
      commitTo: 'b'.repeat(40),
      ref: 'main',
      commitTitle: 'Fix',
    };
    await insertTestEvent({ authorId: owner.user.id, projectId: p.id, action: 'pushed', push });
    expect((await seen(p.id, reporter.token, { action: 'pushed' })).actions).toEqual([['pushed to', null, null]]);
    expect(await seen(p.id, guest.token, { action: 'pushed' })).toEqual({ actions: [], total: '1' });
    // On a public project anyone who reads it sees pushes.
    const pub = await createProject(owner.token, { visibility: 'public' });
    await insertTestEvent({ authorId: owner.user.id, projectId: pub.id, action: 'pushed', push });
    expect((await seen(pub.id, undefined, { action: 'pushed' })).actions).toEqual([['pushed to', null, null]]);
  });

  it('a deleted milestone keeps its events, without a target id (Milestones::DestroyService)', async () => {
    const owner = await createUser();
    const p = await createProject(owner.token, { visibility: 'public' });
    const kept = await api.post(`/projects/${p.id}/milestones`, { token: owner.token, body: { title: 'Kept' } });
    const gone = await api.post(`/projects/${p.id}/milestones`, { token: owner.token, body: { title: 'Gone' } });
    expect(kept.status).toBe(201);
    expect((await api.put(`/projects/${p.id}/milestones/${gone.body.id}`, { token: owner.token, body: { state_event: 'close' } })).status).toBe(200);
    expect((await api.delete(`/projects/${p.id}/milestones/${gone.body.id}`, { token: owner.token })).status).toBe(204);
    const res = await api.get(`/projects/${p.id}/events`, { query: { target_type: 'milestone', sort: 'asc' } });
    expect(res.body.map((e: any) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual([
      ['opened', 'Milestone', kept.body.id, kept.body.iid, 'Kept'],
      ['opened', 'Milestone', null, null, null],
      ['closed', 'Milestone', null, null, null],
      ['destroyed', 'Milestone', null, null, null],
    ]);
  });
});
