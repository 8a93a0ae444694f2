// Issues, notes and the three event listings through @gitbeaker/rest, unmodified, against a served instance:
// create issues and comments, close and reopen, then read /events, /users/:id/events and /projects/:id/events
// with filters (gitbeaker follows X-Next-Page itself when asked for every page).
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';
import { createUser, unique } from '../factories/users.ts';

describe('@gitbeaker/rest issues, notes and events against a served instance', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  beforeAll(async () => {
    server = await serveTestApp();
  });
  afterAll(() => server.close());

  it('create issues and notes, close/reopen, then the three listings with filters', async () => {
    const owner = await createUser();
    const reader = await createUser();
    const gl = new Gitlab({ host: server.url, token: owner.token });
    const asReader = new Gitlab({ host: server.url, token: reader.token });
    const project = await gl.Projects.create({ name: unique('gb-events-'), visibility: 'public' });

    const first = await gl.Issues.create(project.id, 'First issue', { description: 'Body' });
    const second = await gl.Issues.create(project.id, 'Second issue');
    expect([first.iid, second.iid]).toEqual([1, 2]);
    const note = await gl.IssueNotes.create(project.id, first.iid, 'A comment');
    expect(note).toMatchObject({ body: 'A comment', noteable_type: 'Issue', noteable_iid: first.iid, system: false });
    expect(note).not.toHaveProperty('upvote');
    await gl.IssueNotes.edit(project.id, first.iid, note.id, { body: 'An edited comment' });
    const closed = await gl.Issues.edit(project.id, first.iid, { stateEvent: 'close' });
    expect(closed.state).toBe('closed');
    const reopened = await gl.Issues.edit(project.id, first.iid, { stateEvent: 'reopen' });
    expect(reopened.state).toBe('opened');
    const notes = await gl.IssueNotes.all(project.id, first.iid, { sort: 'asc' });
    expect(notes.map((n) => [n.body, n.system])).toEqual([
      ['An edited comment', false],
      ['closed', true],
      ['reopened', true],
    ]);

    // The project listing, oldest first, every page (per_page 2 forces gitbeaker to follow X-Next-Page).
    const all = await gl.Events.all({ projectId: project.id, sort: 'asc', perPage: 2, maxPages: 10 });
    expect(all.map((e) => [e.action_name, e.target_type, e.target_title])).toEqual([
      ['created', null, null],
      ['opened', 'Issue', 'First issue'],
      ['opened', 'Issue', 'Second issue'],
      ['commented on', 'Note', null],
      ['closed', 'Issue', 'First issue'],
      ['opened', 'Issue', 'First issue'],
    ]);
    const comment = all[3]!;
    expect(comment).toMatchObject({
      target_id: note.id,
      author_username: owner.user.username,
      note: { id: note.id, body: 'An edited comment', noteable_iid: first.iid },
    });

    // Filters: action, target_type, before/after (exclusive whole days), through each listing.
    const closedOnly = await gl.Events.all({ projectId: project.id, action: 'closed' });
    expect(closedOnly.map((e) => e.target_iid)).toEqual([first.iid]);
    const mine = await gl.Events.all({ targetType: 'note' });
    expect(mine.map((e) => e.target_id)).toEqual([note.id]);
    // Days relative to the events' own (UTC) day, so a run across midnight still holds.
    const base = Date.parse(`${String(all[0]!.created_at).slice(0, 10)}T00:00:00Z`);
    const day = (offset: number) => new Date(base + offset * 86_400_000).toISOString().slice(0, 10);
    const today = day(0);
    expect(await gl.Events.all({ before: today, after: day(-2) })).toEqual([]);
    expect((await gl.Events.all({ before: day(1), after: day(-1) })).length).toBe(6);
    const theirs = await asReader.Users.allEvents(owner.user.id, { action: 'reopened' });
    expect(theirs.map((e: any) => [e.action_name, e.target_iid])).toEqual([['opened', first.iid]]);
    const byPath = await asReader.Events.all({ projectId: project.path_with_namespace, targetType: 'issue', sort: 'desc' });
    expect(byPath.map((e) => e.action_name)).toEqual(['opened', 'closed', 'opened', 'opened']);

    // A bad filter is the client's error, with GitLab's message.
    await expect(gl.Events.all({ action: 'exploded' as never })).rejects.toMatchObject({ cause: { description: 'action does not have a valid value' } });
  });
});
