// The issue's note counters (REST user_notes_count, GraphQL userNotesCount and userDiscussionsCount) count only the
// notes the caller may read: a confidential note on a public issue is counted for reporters and above, the issue's
// author and assignees, never for anyone else (they would learn that a hidden comment exists).
import { describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createIssue } from '../../factories/issues.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount } from '../../helpers/app.ts';
import { gql } from '../../graphql/helpers.ts';

async function setup() {
  const owner = await createUser();
  const reporter = await createUser();
  const author = await createUser();
  const assignee = await createUser();
  const stranger = await createUser();
  const project = await createProject(owner.token, { visibility: 'public' });
  await addMember(owner.token, 'projects', project.id, reporter.user.id, 20);
  // Written by a non-member (public project) who mentions the stranger (a to-do whose target carries the count), and
  // assigned to a non-member (assignable: the project is public).
  const issue = await createIssue(author.token, project.id, { description: `cc @${stranger.user.username}` });
  expect((await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, body: { assignee_ids: [assignee.user.id] } })).status).toBe(200);
  const notes = `/projects/${project.id}/issues/${issue.iid}/notes`;
  expect((await api.post(notes, { token: stranger.token, body: { body: 'public' } })).status).toBe(201);
  const hidden = await api.post(notes, { token: reporter.token, body: { body: 'internal', confidential: true } });
  expect(hidden).toMatchObject({ status: 201, body: { confidential: true } });
  return { owner, reporter, author, assignee, stranger, project, issue };
}

describe('note counters follow note visibility', () => {
  it('REST user_notes_count (single issue, project and global lists, to-do targets) counts confidential notes only for those who read them', async () => {
    const fx = await setup();
    const single = `/projects/${fx.project.id}/issues/${fx.issue.iid}`;
    const count = async (token?: string) => {
      const one = await api.get(single, token ? { token } : {});
      expect(one.status, one.text).toBe(200);
      const list = await api.get(`/projects/${fx.project.id}/issues`, token ? { token } : {});
      expect(list.status, list.text).toBe(200);
      expect(list.body.map((i: any) => i.user_notes_count)).toEqual([one.body.user_notes_count]);
      return one.body.user_notes_count;
    };
    // What the stranger is shown: one note, and the count says one.
    const shown = await api.get(`${single}/notes`, { token: fx.stranger.token });
    expect(shown.body.map((n: any) => n.body)).toEqual(['public']);
    expect(await count(fx.stranger.token)).toBe(1);
    expect(await count()).toBe(1);
    for (const reader of [fx.reporter, fx.owner, fx.author, fx.assignee, await createAdmin()]) expect(await count(reader.token)).toBe(2);
    const global = await api.get('/issues', { token: fx.author.token, query: { scope: 'created_by_me' } });
    expect(global.body.map((i: any) => i.user_notes_count)).toEqual([2]);

    const todos = await api.get('/todos', { token: fx.stranger.token });
    expect(todos.status).toBe(200);
    expect(todos.body.map((t: any) => [t.target.id, t.target.user_notes_count])).toEqual([[fx.issue.id, 1]]);
  });

  it('GraphQL userNotesCount and userDiscussionsCount (a page of issues and a single issue) count what the caller may read', async () => {
    const fx = await setup();
    const page = `query($p: ID!) { project(fullPath: $p) { issues { nodes { iid userNotesCount userDiscussionsCount } } } }`;
    const single = `query($id: IssueID!) { issue(id: $id) { userNotesCount userDiscussionsCount } }`;
    const counts = async (token?: string) => {
      const listed = await gql(page, { token, variables: { p: fx.project.path_with_namespace } });
      expect(listed.body.errors).toBeUndefined();
      const one = await gql(single, { token, variables: { id: `gid://gitlab/Issue/${fx.issue.id}` } });
      expect(one.body.errors).toBeUndefined();
      expect(listed.body.data.project.issues.nodes).toEqual([{ iid: String(fx.issue.iid), ...one.body.data.issue }]);
      return one.body.data.issue;
    };
    expect(await counts(fx.stranger.token)).toEqual({ userNotesCount: 1, userDiscussionsCount: 1 });
    expect(await counts()).toEqual({ userNotesCount: 1, userDiscussionsCount: 1 });
    for (const reader of [fx.reporter, fx.author, fx.assignee]) expect(await counts(reader.token)).toEqual({ userNotesCount: 2, userDiscussionsCount: 2 });
  });

  it('REST notes list: X-Total and the pages hold only the notes the caller may read', async () => {
    const fx = await setup();
    const url = `/projects/${fx.project.id}/issues/${fx.issue.iid}/notes`;
    for (const body of ['later', 'latest']) expect((await api.post(url, { token: fx.stranger.token, body: { body } })).status).toBe(201);
    // Newest first, one a page: the stranger pages through the three notes they may read, and the totals say three.
    const seen: string[] = [];
    for (const page of ['1', '2', '3']) {
      const res = await api.get(url, { token: fx.stranger.token, query: { per_page: '1', page } });
      expect(res.status).toBe(200);
      expect([res.headers.get('x-total'), res.headers.get('x-total-pages')]).toEqual(['3', '3']);
      seen.push(...res.body.map((n: any) => n.body));
    }
    expect(seen).toEqual(['latest', 'later', 'public']);
    const asAuthor = await api.get(url, { token: fx.author.token, query: { per_page: '1', page: '3' } });
    expect(asAuthor.body.map((n: any) => n.body)).toEqual(['internal']);
    expect(asAuthor.headers.get('x-total')).toBe('4');
  });

  it('costs no extra query: the REST list and the GraphQL page keep their budgets', async () => {
    const fx = await setup();
    const rest = await api.get(`/projects/${fx.project.id}/issues`, { token: fx.stranger.token });
    expect(rest.status).toBe(200);
    // The token, the project, the page with its total.
    expect(queryCount(rest)).toBeLessThanOrEqual(3);
    const res = await gql(`query($p: ID!) { project(fullPath: $p) { issues { nodes { iid userNotesCount userDiscussionsCount } } } }`, {
      token: fx.stranger.token,
      variables: { p: fx.project.path_with_namespace },
    });
    expect(res.body.errors).toBeUndefined();
    // The token, the project, the page, the discussion counts.
    expect(queryCount(res)).toBeLessThanOrEqual(4);
  });
});
