// Epic events (GitLab 13.6 EE EventCreateService#open_epic/#close_epic/#reopen_epic): recorded with the change, as
// the group's (group_id set, project_id null, target "Epic"); REST's event listings do not show them (EventsFinder
// joins events to projects: "Events associated with epics are not available using the API"), and `target_type=epic`
// is not one of the filter's values.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../../db/queries/lib/raw.ts';
import { EVENT_ACTIONS } from '../../../db/schema/index.ts';
import { insertTestEvent } from '../../factories/events.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, request, testDb } from '../../helpers/app.ts';
import { createEpic, PREMIUM } from './support.ts';

type Row = { action: number; author_id: number; project_id: number | null; group_id: number | null; target_type: string | null; target_id: number | null };
const epicEvents = (epicId: number) =>
  rows<Row>(
    testDb().db,
    sql`SELECT action, author_id, project_id, group_id, target_type, target_id FROM events WHERE target_type = 'Epic' AND target_id = ${epicId} ORDER BY id`,
  );

describe('epic events', () => {
  it('create, close and reopen record the group event in the same transaction; other updates record none', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const epic = await createEpic(owner.token, group.id);
    const url = `/groups/${group.id}/epics/${epic.iid}`;
    for (const body of [{ title: 'Renamed' }, { state_event: 'close' }, { state_event: 'close' }, { state_event: 'reopen' }, { state_event: 'reopen' }]) {
      const res = await api.put(url, { token: owner.token, env: PREMIUM, body });
      expect(res.status, res.text).toBe(200);
    }
    const base = { author_id: owner.user.id, project_id: null, group_id: group.id, target_type: 'Epic', target_id: epic.id };
    expect(await epicEvents(epic.id)).toEqual([
      { ...base, action: EVENT_ACTIONS.created },
      { ...base, action: EVENT_ACTIONS.closed },
      { ...base, action: EVENT_ACTIONS.reopened },
    ]);
  });

  it('GraphQL createEpic and updateEpic record the same events', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const gql = (query: string) => request('POST', '/api/graphql', { token: owner.token, env: PREMIUM, body: { query } });
    const created = await gql(`mutation { createEpic(input: { groupPath: "${group.full_path}", title: "From GraphQL" }) { epic { id iid } errors } }`);
    expect(created.body.data.createEpic.errors, created.text).toEqual([]);
    const { id, iid } = created.body.data.createEpic.epic;
    const closed = await gql(`mutation { updateEpic(input: { groupPath: "${group.full_path}", iid: "${iid}", stateEvent: CLOSE }) { errors } }`);
    expect(closed.body.data.updateEpic.errors, closed.text).toEqual([]);
    const epicId = Number(String(id).split('/').pop());
    expect((await epicEvents(epicId)).map((e) => e.action)).toEqual([EVENT_ACTIONS.created, EVENT_ACTIONS.closed]);
  });

  it('a refused create or update records nothing', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const epic = await createEpic(owner.token, group.id);
    const [before] = await rows<{ n: unknown }>(testDb().db, sql`SELECT count(*) AS n FROM events WHERE group_id = ${group.id}`);
    const bad = await api.post(`/groups/${group.id}/epics`, { token: owner.token, env: PREMIUM, body: { title: '  ' } });
    expect(bad.status).toBe(400);
    const blank = await api.put(`/groups/${group.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM, body: { title: '', state_event: 'close' } });
    expect(blank.status).toBe(400);
    const [after] = await rows<{ n: unknown }>(testDb().db, sql`SELECT count(*) AS n FROM events WHERE group_id = ${group.id}`);
    expect(Number(after!.n)).toBe(Number(before!.n));
  });

  it('are not listed by GET /events, /users/:id/events nor counted; target_type=epic is not a filter value', async () => {
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'public' });
    const project = await createProject(owner.token, { visibility: 'public' });
    const epic = await createEpic(owner.token, group.id);
    await api.put(`/groups/${group.id}/epics/${epic.iid}`, { token: owner.token, env: PREMIUM, body: { state_event: 'close' } });
    expect(await epicEvents(epic.id)).toHaveLength(2);
    const own = await api.get('/events', { token: owner.token, env: PREMIUM });
    expect(own.status).toBe(200);
    expect(own.body.map((e: { project_id: number | null }) => e.project_id)).toEqual([project.id]);
    expect(own.headers.get('x-total')).toBe('1');
    const theirs = await api.get(`/users/${owner.user.id}/events`, { env: PREMIUM });
    expect(theirs.body.map((e: { target_type: string | null }) => e.target_type)).toEqual([null]);
    // A note on an epic is a group-level Note event: not listed either (another group event is, for the group's readers).
    const noteEvent = await insertTestEvent({ authorId: owner.user.id, groupId: group.id, action: 'commented', targetType: 'Note', targetId: 2147483000 });
    const joined = await insertTestEvent({ authorId: owner.user.id, groupId: group.id, action: 'joined' });
    const listed = (await api.get('/events', { token: owner.token, env: PREMIUM })).body.map((e: { id: number }) => e.id);
    expect(listed).toContain(joined);
    expect(listed).not.toContain(noteEvent);
    const filtered = await api.get('/events', { token: owner.token, env: PREMIUM, query: { target_type: 'epic' } });
    expect(filtered.status).toBe(400);
    expect(filtered.body).toEqual({ error: 'target_type does not have a valid value' });
  });
});
