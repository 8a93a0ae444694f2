// GraphQL notes: Issue.notes and Issue.discussions (Noteable) with the Note and Discussion types, confidential notes
// through the policy, and createNote (13.6 shapes): a comment or a reply into a discussion, through the same service
// as REST (the `commented` event, mention to-dos), with payload errors and top-level errors as GitLab.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, TEST_PUBLIC_URL } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;
const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const CREATE_NOTE = `mutation($input: CreateNoteInput!) { createNote(input: $input) {
  clientMutationId errors
  note { id body bodyHtml system confidential author { username } project { fullPath } discussion { id replyId notes { nodes { id } } } createdAt updatedAt
         resolvable resolved resolvedAt resolvedBy { username } systemNoteIconName
         userPermissions { adminNote awardEmoji createNote readNote repositionNote resolveNote } }
} }`;

async function setup() {
  const owner = await createUser();
  const guest = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  await addMember(owner.token, 'projects', project.id, guest.user.id, 10);
  const issue = await createIssue(owner.token, project.id, { title: 'Discuss me' });
  return { owner, guest, project, issue };
}

describe('createNote', () => {
  it('adds a comment (exact body, clientMutationId echoed), records `commented` and gives mention to-dos as REST does', async () => {
    const { owner, guest, project, issue } = await setup();
    const res = await gql(CREATE_NOTE, {
      token: owner.token,
      variables: { input: { noteableId: gid('Issue', issue.id), body: `Ping @${guest.user.username}`, clientMutationId: 'abc-1' } },
    });
    expect(res.body.errors).toBeUndefined();
    const note = res.body.data.createNote.note;
    const id = Number(note.id.split('/').pop());
    const rest = (await api.get(`/projects/${project.id}/issues/${issue.iid}/notes/${id}`, { token: owner.token })).body;
    expect(res.body).toEqual({
      data: {
        createNote: {
          clientMutationId: 'abc-1',
          errors: [],
          note: {
            id: gid('Note', id),
            body: `Ping @${guest.user.username}`,
            bodyHtml: `<p dir="auto">Ping @${guest.user.username}</p>`,
            system: false,
            confidential: false,
            author: { username: owner.user.username },
            project: { fullPath: project.path_with_namespace },
            discussion: { id: note.discussion.id, replyId: note.discussion.id, notes: { nodes: [{ id: gid('Note', id) }] } },
            createdAt: rest.created_at,
            updatedAt: rest.updated_at,
            resolvable: false,
            resolved: false,
            resolvedAt: null,
            resolvedBy: null,
            systemNoteIconName: null,
            userPermissions: { adminNote: true, awardEmoji: true, createNote: true, readNote: true, repositionNote: true, resolveNote: false },
          },
        },
      },
    });
    expect(note.discussion.id).toMatch(/^gid:\/\/gitlab\/Discussion\/[0-9a-f]{40}$/);

    // The same event as a REST comment: `commented on` the note.
    const events = (await api.get(`/projects/${project.id}/events`, { token: owner.token })).body as any[];
    expect(events.find((e) => e.target_type === 'Note')).toMatchObject({
      action_name: 'commented on',
      target_id: id,
      target_type: 'Note',
      author_username: owner.user.username,
      note: { id, body: `Ping @${guest.user.username}`, noteable_type: 'Issue', noteable_iid: issue.iid },
    });
    // The mentioned guest got a to-do showing the note.
    const todos = await gql('query($id: IssueID!) { issue(id: $id) { currentUserTodos { nodes { action body author { username } } } } }', {
      token: guest.token,
      variables: { id: gid('Issue', issue.id) },
    });
    expect(todos.body.data.issue.currentUserTodos.nodes).toEqual([
      { action: 'mentioned', body: `Ping @${guest.user.username}`, author: { username: owner.user.username } },
    ]);
    expect(issue.web_url).toBe(`${TEST_PUBLIC_URL}/${project.path_with_namespace}/-/issues/${issue.iid}`);
  });

  it('replies into a discussion: the reply and the note replied to become DiscussionNotes of one discussion', async () => {
    const { owner, guest, issue } = await setup();
    const first = await gql(CREATE_NOTE, { token: owner.token, variables: { input: { noteableId: gid('Issue', issue.id), body: 'Question?' } } });
    const discussionId = first.body.data.createNote.note.discussion.id;
    const firstId = Number(first.body.data.createNote.note.id.split('/').pop());
    const reply = await gql(CREATE_NOTE, { token: guest.token, variables: { input: { noteableId: gid('Issue', issue.id), body: 'Answer.', discussionId } } });
    expect(reply.body.errors).toBeUndefined();
    const replyId = Number(reply.body.data.createNote.note.id.split('/').pop());
    expect(reply.body.data.createNote.note).toMatchObject({
      id: gid('DiscussionNote', replyId),
      author: { username: guest.user.username },
      discussion: { id: discussionId, notes: { nodes: [{ id: gid('DiscussionNote', firstId) }, { id: gid('DiscussionNote', replyId) }] } },
      // The author administers their own note.
      userPermissions: { adminNote: true, awardEmoji: true, createNote: true, readNote: true },
    });
    const discussions = await gql('query($id: IssueID!) { issue(id: $id) { discussions { nodes { id notes { nodes { body } } } } } }', {
      token: guest.token,
      variables: { id: gid('Issue', issue.id) },
    });
    expect(discussions.body.data.issue.discussions.nodes).toEqual([{ id: discussionId, notes: { nodes: [{ body: 'Question?' }, { body: 'Answer.' }] } }]);
  });

  it('business failures go in `errors`: a blank body, a discussion of another issue', async () => {
    const { owner, project, issue } = await setup();
    const blank = await gql(CREATE_NOTE, {
      token: owner.token,
      variables: { input: { noteableId: gid('Issue', issue.id), body: '  ', clientMutationId: 'c2' } },
    });
    expect(blank.body).toEqual({ data: { createNote: { clientMutationId: 'c2', errors: ["Note can't be blank"], note: null } } });

    const other = await createIssue(owner.token, project.id);
    const elsewhere = await gql(CREATE_NOTE, { token: owner.token, variables: { input: { noteableId: gid('Issue', other.id), body: 'there' } } });
    const res = await gql(CREATE_NOTE, {
      token: owner.token,
      variables: { input: { noteableId: gid('Issue', issue.id), body: 'here', discussionId: elsewhere.body.data.createNote.note.discussion.id } },
    });
    expect(res.body).toEqual({ data: { createNote: { clientMutationId: null, errors: ['Discussion to reply to cannot be found'], note: null } } });
  });

  it('not found / forbidden is the top-level resource error; an unreadable discussion has its own message', async () => {
    const { owner, issue } = await setup();
    const stranger = await createUser();
    const input = { noteableId: gid('Issue', issue.id), body: 'hi' };
    for (const token of [stranger.token, undefined]) {
      const res = await gql(CREATE_NOTE, { token, variables: { input } });
      expect(res.body).toMatchObject({ data: { createNote: null }, errors: [{ message: RESOURCE_ERROR, path: ['createNote'] }] });
    }
    const missing = await gql(CREATE_NOTE, { token: owner.token, variables: { input: { ...input, noteableId: gid('Issue', 999999999) } } });
    expect(missing.body).toMatchObject({ data: { createNote: null }, errors: [{ message: RESOURCE_ERROR }] });

    // A discussion on a project the caller cannot read (or none at all).
    const other = await setup();
    const hidden = await gql(CREATE_NOTE, { token: other.owner.token, variables: { input: { noteableId: gid('Issue', other.issue.id), body: 'x' } } });
    const hiddenDiscussion = hidden.body.data.createNote.note.discussion.id;
    for (const discussionId of [hiddenDiscussion, gid('Discussion', 'f'.repeat(40))]) {
      const res = await gql(CREATE_NOTE, { token: owner.token, variables: { input: { ...input, discussionId } } });
      expect(res.body).toMatchObject({
        data: { createNote: null },
        errors: [{ message: "The discussion does not exist or you don't have permission to perform this action", path: ['createNote'] }],
      });
    }
    // A global id of something that carries no notes is an argument error.
    const wrong = await gql(CREATE_NOTE, { token: owner.token, variables: { input: { ...input, noteableId: gid('Project', 1) } } });
    expect(wrong.body).toMatchObject({
      data: { createNote: null },
      errors: [
        {
          message:
            '"gid://gitlab/Project/1" is not a valid id for Issue or MergeRequest or ProjectSnippet or PersonalSnippet or Snippet or Epic or AlertManagement::Alert.',
          path: ['createNote'],
        },
      ],
    });
  });
});

describe('Issue.notes and Issue.discussions', () => {
  it('lists notes and discussions oldest first (exact body), with system notes; confidential notes are hidden from a guest', async () => {
    const { owner, guest, project, issue } = await setup();
    const base = `/projects/${project.id}/issues/${issue.iid}`;
    const comment = (await api.post(`${base}/notes`, { token: guest.token, body: { body: 'Looks wrong' } })).body;
    const secret = (await api.post(`${base}/notes`, { token: owner.token, body: { body: 'Internal', confidential: true } })).body;
    await api.put(base, { token: owner.token, body: { state_event: 'close' } });
    const all = (await api.get(`${base}/notes?sort=asc`, { token: owner.token })).body as any[];
    const system = all.find((n) => n.system);
    expect(secret.confidential).toBe(true);

    const query = `query($id: IssueID!) { issue(id: $id) {
      notes { nodes { id body system confidential systemNoteIconName author { username } createdAt } }
      discussions { nodes { id createdAt notes { nodes { id } } } }
    } }`;
    const res = await gql(query, { token: owner.token, variables: { id: gid('Issue', issue.id) } });
    expect(res.body.errors).toBeUndefined();
    const discussionIds = res.body.data.issue.discussions.nodes.map((d: { id: string }) => d.id);
    expect(discussionIds).toHaveLength(3);
    expect(res.body).toEqual({
      data: {
        issue: {
          notes: {
            nodes: [
              {
                id: gid('Note', comment.id),
                body: 'Looks wrong',
                system: false,
                confidential: false,
                systemNoteIconName: null,
                author: { username: guest.user.username },
                createdAt: comment.created_at,
              },
              {
                id: gid('Note', secret.id),
                body: 'Internal',
                system: false,
                confidential: true,
                systemNoteIconName: null,
                author: { username: owner.user.username },
                createdAt: secret.created_at,
              },
              {
                id: gid('Note', system.id),
                body: 'closed',
                system: true,
                confidential: false,
                systemNoteIconName: 'issue-close',
                author: { username: owner.user.username },
                createdAt: system.created_at,
              },
            ],
          },
          discussions: {
            nodes: [
              { id: discussionIds[0], createdAt: comment.created_at, notes: { nodes: [{ id: gid('Note', comment.id) }] } },
              { id: discussionIds[1], createdAt: secret.created_at, notes: { nodes: [{ id: gid('Note', secret.id) }] } },
              { id: discussionIds[2], createdAt: system.created_at, notes: { nodes: [{ id: gid('Note', system.id) }] } },
            ],
          },
        },
      },
    });
    const asGuest = await gql(query, { token: guest.token, variables: { id: gid('Issue', issue.id) } });
    expect(asGuest.body.data.issue.notes.nodes.map((n: { id: string }) => n.id)).toEqual([gid('Note', comment.id), gid('Note', system.id)]);
    expect(asGuest.body.data.issue.discussions.nodes.map((d: { id: string }) => d.id)).toEqual([discussionIds[0], discussionIds[2]]);
  });

  it('pages notes and discussions forwards and backwards', async () => {
    const { owner, project, issue } = await setup();
    const bodies = ['one', 'two', 'three', 'four'];
    for (const body of bodies) await api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body } });
    const page = async (field: string, args: string) => {
      const inner = field === 'notes' ? 'body' : 'notes { nodes { body } }';
      const res = await gql(
        `query($id: IssueID!) { issue(id: $id) { ${field}(${args}) { nodes { ${inner} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        {
          token: owner.token,
          variables: { id: gid('Issue', issue.id) },
        },
      );
      expect(res.body.errors).toBeUndefined();
      const conn = res.body.data.issue[field];
      return { ...conn, bodies: conn.nodes.map((n: any) => (field === 'notes' ? n.body : n.notes.nodes[0].body)) };
    };
    for (const field of ['notes', 'discussions']) {
      const first = await page(field, 'first: 3');
      expect(first.bodies).toEqual(['one', 'two', 'three']);
      expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const next = await page(field, `first: 3, after: "${first.pageInfo.endCursor}"`);
      expect(next.bodies).toEqual(['four']);
      expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const last = await page(field, 'last: 2');
      expect(last.bodies).toEqual(['three', 'four']);
      expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const before = await page(field, `last: 2, before: "${last.pageInfo.startCursor}"`);
      expect(before.bodies).toEqual(['one', 'two']);
      expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    }
  });
});
