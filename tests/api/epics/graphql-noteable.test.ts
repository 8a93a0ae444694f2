// GraphQL over epics as noteables, awardables and to-do targets (13.6 EE: Epic implements CurrentUserTodos &
// Noteable): notes, discussions and currentUserTodos on Group.epics in a constant number of queries, createNote and
// the award emoji mutations with an Epic global id, todoCreate, and the tier gate.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, queryCount, request } from '../../helpers/app.ts';
import { createEpic, PREMIUM } from './support.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const gql = (query: string, options: { token?: string; variables?: Record<string, unknown>; tier?: 'free' | 'premium' } = {}) =>
  request('POST', '/api/graphql', {
    token: options.token,
    body: { query, variables: options.variables ?? {} },
    env: { INSTANCE_TIER: options.tier ?? 'premium' },
  });

async function setup() {
  const owner = await createUser();
  const guest = await createUser();
  const group = await createGroup(owner.token);
  await addMember(owner.token, 'groups', group.id, guest.user.id, 10);
  const epic = await createEpic(owner.token, group.id, { title: 'E1' });
  return { owner, guest, group, epic, gid: `gid://gitlab/Epic/${epic.id}` };
}

const EPIC_NOTES = `query($path: ID!) { group(fullPath: $path) { epics { nodes { iid
  notes { nodes { body author { username } project { id } userPermissions { adminNote awardEmoji createNote } } }
  discussions { nodes { notes { nodes { body } } } }
  currentUserTodos(state: pending) { nodes { body action targetType project { id } group { fullPath } } }
} } } }`;

describe('Epic as Noteable and CurrentUserTodos', () => {
  it('reads notes, discussions and the current user to-dos of epics, in a constant number of queries', async () => {
    const fx = await setup();
    const post = (epicId: number, body: string) =>
      api.post(`/groups/${fx.group.id}/epics/${epicId}/notes`, { token: fx.owner.token, body: { body }, env: PREMIUM });
    expect((await post(fx.epic.id, `Hi @${fx.guest.user.username}`)).status).toBe(201);
    // The first request of a token also records its use: measure the second.
    await gql(EPIC_NOTES, { token: fx.guest.token, variables: { path: fx.group.full_path } });
    const one = await gql(EPIC_NOTES, { token: fx.guest.token, variables: { path: fx.group.full_path } });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.group.epics.nodes).toEqual([
      {
        iid: String(fx.epic.iid),
        notes: {
          nodes: [
            {
              body: `Hi @${fx.guest.user.username}`,
              author: { username: fx.owner.user.username },
              project: null,
              userPermissions: { adminNote: false, awardEmoji: true, createNote: true },
            },
          ],
        },
        discussions: { nodes: [{ notes: { nodes: [{ body: `Hi @${fx.guest.user.username}` }] } }] },
        currentUserTodos: {
          nodes: [{ body: `Hi @${fx.guest.user.username}`, action: 'mentioned', targetType: 'EPIC', project: null, group: { fullPath: fx.group.full_path } }],
        },
      },
    ]);
    for (let i = 0; i < 3; i++) {
      const e = await createEpic(fx.owner.token, fx.group.id);
      await post(e.id, `note ${i} @${fx.guest.user.username}`);
    }
    const many = await gql(EPIC_NOTES, { token: fx.guest.token, variables: { path: fx.group.full_path } });
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.group.epics.nodes).toHaveLength(4);
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(one));
  });

  it('creates a note on an epic by its global id (createNote), with no project', async () => {
    const fx = await setup();
    const res = await gql(
      `mutation($id: ID!) { createNote(input: { noteableId: $id, body: "From GraphQL" }) { errors note { body project { id } discussion { id } } } }`,
      { token: fx.guest.token, variables: { id: fx.gid } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createNote).toEqual({
      errors: [],
      note: { body: 'From GraphQL', project: null, discussion: { id: expect.stringMatching(/^gid:\/\/gitlab\/Discussion\/[0-9a-f]{40}$/) } },
    });
    const list = await api.get(`/groups/${fx.group.id}/epics/${fx.epic.id}/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(list.body.map((n: { body: string }) => n.body)).toEqual(['From GraphQL']);
  });

  it('refuses createNote on an epic without the license or the right to read it (resource error, nothing written)', async () => {
    const fx = await setup();
    const stranger = await createUser();
    for (const [token, tier] of [
      [fx.owner.token, 'free'],
      [stranger.token, 'premium'],
    ] as const) {
      const res = await gql(`mutation($id: ID!) { createNote(input: { noteableId: $id, body: "x" }) { errors note { body } } }`, {
        token,
        tier,
        variables: { id: fx.gid },
      });
      expect(res.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
    }
    const list = await api.get(`/groups/${fx.group.id}/epics/${fx.epic.id}/notes`, { token: fx.owner.token, env: PREMIUM });
    expect(list.body).toEqual([]);
  });
});

describe('award emoji mutations on epics', () => {
  it('adds, toggles and removes an award on an epic; the epic counts it', async () => {
    const fx = await setup();
    const add = await gql(
      `mutation($id: ID!) { awardEmojiAdd(input: { awardableId: $id, name: "thumbsup" }) { errors awardEmoji { name user { username } } } }`,
      {
        token: fx.guest.token,
        variables: { id: fx.gid },
      },
    );
    expect(add.body.data.awardEmojiAdd).toEqual({ errors: [], awardEmoji: { name: 'thumbsup', user: { username: fx.guest.user.username } } });
    const votes = await gql(`query($path: ID!) { group(fullPath: $path) { epics { nodes { upvotes downvotes } } } }`, {
      token: fx.guest.token,
      variables: { path: fx.group.full_path },
    });
    expect(votes.body.data.group.epics.nodes).toEqual([{ upvotes: 1, downvotes: 0 }]);
    const toggle = await gql(`mutation($id: ID!) { awardEmojiToggle(input: { awardableId: $id, name: "thumbsup" }) { errors toggledOn } }`, {
      token: fx.guest.token,
      variables: { id: fx.gid },
    });
    expect(toggle.body.data.awardEmojiToggle).toEqual({ errors: [], toggledOn: false });
    const remove = await gql(`mutation($id: ID!) { awardEmojiRemove(input: { awardableId: $id, name: "thumbsup" }) { errors } }`, {
      token: fx.guest.token,
      variables: { id: fx.gid },
    });
    expect(remove.body.data.awardEmojiRemove.errors).toEqual(['User has not awarded emoji of type thumbsup on the awardable']);
    const free = await gql(`mutation($id: ID!) { awardEmojiAdd(input: { awardableId: $id, name: "thumbsup" }) { errors } }`, {
      token: fx.owner.token,
      tier: 'free',
      variables: { id: fx.gid },
    });
    expect(free.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
  });
});

describe('todoCreate on an epic', () => {
  it('marks a to-do for the current user, listed by REST and by currentUserTodos', async () => {
    const fx = await setup();
    const res = await gql(
      `mutation($id: TodoableID!) { todoCreate(input: { targetId: $id }) { errors todo { action state targetType body group { fullPath } project { id } } } }`,
      {
        token: fx.guest.token,
        variables: { id: fx.gid },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.todoCreate).toEqual({
      errors: [],
      todo: { action: 'marked', state: 'pending', targetType: 'EPIC', body: 'E1', group: { fullPath: fx.group.full_path }, project: null },
    });
    const rest = await api.get('/todos?type=Epic', { token: fx.guest.token, env: PREMIUM });
    expect(rest.body).toEqual([expect.objectContaining({ action_name: 'marked', target_type: 'Epic', body: 'E1', target_url: fx.epic.web_url })]);
    const stranger = await createUser();
    const hidden = await gql(`mutation($id: TodoableID!) { todoCreate(input: { targetId: $id }) { errors } }`, {
      token: stranger.token,
      variables: { id: fx.gid },
    });
    expect(hidden.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
    const free = await gql(`mutation($id: TodoableID!) { todoCreate(input: { targetId: $id }) { errors } }`, {
      token: fx.guest.token,
      tier: 'free',
      variables: { id: fx.gid },
    });
    expect(free.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
  });
});

describe('todoCreate on an issue', () => {
  it('marks a to-do on a readable issue in its project', async () => {
    const owner = await createUser();
    const project = await createProject(owner.token);
    const issue = await createIssue(owner.token, project.id, { title: 'Bug' });
    const res = await gql(
      `mutation($id: TodoableID!) { todoCreate(input: { targetId: $id }) { errors todo { action targetType body project { id } group { id } } } }`,
      {
        token: owner.token,
        variables: { id: `gid://gitlab/Issue/${issue.id}` },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.todoCreate).toEqual({
      errors: [],
      todo: { action: 'marked', targetType: 'ISSUE', body: 'Bug', project: { id: `gid://gitlab/Project/${project.id}` }, group: null },
    });
    const stranger = await createUser();
    const hidden = await gql(`mutation($id: TodoableID!) { todoCreate(input: { targetId: $id }) { errors } }`, {
      token: stranger.token,
      variables: { id: `gid://gitlab/Issue/${issue.id}` },
    });
    expect(hidden.body.errors?.[0]?.message).toBe(RESOURCE_ERROR);
  });
});
