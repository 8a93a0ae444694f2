// GraphQL Issue core fields GitLab 13.6 has beyond the first set: titleHtml, descriptionHtml, relativePosition,
// emailsDisabled, blocked, updatedBy, userDiscussionsCount and participants (author, assignees and the authors of
// the notes the caller may read, once each), with exact values, what a stranger sees, and their page budget.
import { describe, expect, it } from 'vitest';
import { insertTestNote } from '../factories/events.ts';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { api, queryCount } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;

const FIELDS = `titleHtml descriptionHtml relativePosition emailsDisabled blocked updatedBy { username } userDiscussionsCount
  participants { nodes { username } pageInfo { hasNextPage hasPreviousPage } }`;

async function note(token: string, issueId: number, body: string, discussionId?: string) {
  const res = await gql(`mutation($input: CreateNoteInput!) { createNote(input: $input) { errors note { id discussion { id } } } }`, {
    token,
    variables: { input: { noteableId: gid('Issue', issueId), body, ...(discussionId ? { discussionId } : {}) } },
  });
  expect(res.body.data.createNote.errors).toEqual([]);
  return res.body.data.createNote.note as { id: string; discussion: { id: string } };
}

describe('Issue core fields (13.6)', () => {
  it('answers titleHtml, descriptionHtml, the fixed fields, updatedBy, userDiscussionsCount and participants (exact values)', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const commenter = await createUser();
    const secret = await createUser();
    const project = await createProject(owner.token, { visibility: 'public' });
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const issue = await createIssue(owner.token, project.id, {
      title: 'First <b> & "title"',
      description: 'Line one\nline <two>',
      assignee_ids: [dev.user.id],
    });
    // A plain issue: nobody updated it, no notes; its author is its only participant.
    const plain = await createIssue(owner.token, project.id, { title: 'Plain' });

    // The owner closes it (a system note, which does not count), then the developer renames it (updatedBy); two
    // discussions of the commenter (one with the developer's reply), the owner's comment and a confidential note.
    expect((await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'close' } })).status).toBe(200);
    const put = await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: dev.token, body: { title: 'Fix <b> & "stuff"' } });
    expect(put.status).toBe(200);
    const first = await note(commenter.token, issue.id, 'first thought');
    await note(dev.token, issue.id, 'a reply', first.discussion.id);
    await note(commenter.token, issue.id, 'second thought');
    await note(owner.token, issue.id, 'from the owner');
    await insertTestNote({ projectId: project.id, issueId: issue.id, authorId: secret.user.id, body: 'hush', confidential: true });

    const query = `query($p: ID!) { project(fullPath: $p) { issues(sort: created_asc) { nodes { iid ${FIELDS} } } } }`;
    const asOwner = await gql(query, { token: owner.token, variables: { p: project.path_with_namespace } });
    const noPaging = { hasNextPage: false, hasPreviousPage: false };
    expect(asOwner.body).toEqual({
      data: {
        project: {
          issues: {
            nodes: [
              {
                iid: String(issue.iid),
                titleHtml: 'Fix &lt;b&gt; &amp; &quot;stuff&quot;',
                descriptionHtml: '<p dir="auto">Line one<br>\nline &lt;two&gt;</p>',
                relativePosition: null,
                emailsDisabled: false,
                blocked: false,
                updatedBy: { username: dev.user.username },
                // Discussions of user notes: the commenter's two (one with a reply), the owner's, the confidential one.
                userDiscussionsCount: 4,
                participants: {
                  nodes: [
                    { username: owner.user.username },
                    { username: dev.user.username },
                    { username: commenter.user.username },
                    { username: secret.user.username },
                  ],
                  pageInfo: noPaging,
                },
              },
              {
                iid: String(plain.iid),
                titleHtml: 'Plain',
                descriptionHtml: '',
                relativePosition: null,
                emailsDisabled: false,
                blocked: false,
                updatedBy: null,
                userDiscussionsCount: 0,
                participants: { nodes: [{ username: owner.user.username }], pageInfo: noPaging },
              },
            ],
          },
        },
      },
    });

    // A stranger cannot read the confidential note: its author is no participant for them.
    const asStranger = await gql(`query($id: IssueID!) { issue(id: $id) { participants { nodes { username } } } }`, {
      token: (await createUser()).token,
      variables: { id: gid('Issue', issue.id) },
    });
    expect(asStranger.body).toEqual({
      data: { issue: { participants: { nodes: [{ username: owner.user.username }, { username: dev.user.username }, { username: commenter.user.username }] } } },
    });
    // Paged like every connection.
    const paged = await gql(`query($id: IssueID!) { issue(id: $id) { participants(first: 2) { nodes { username } pageInfo { hasNextPage endCursor } } } }`, {
      token: owner.token,
      variables: { id: gid('Issue', issue.id) },
    });
    const page1 = paged.body.data.issue.participants;
    expect(page1.nodes).toEqual([{ username: owner.user.username }, { username: dev.user.username }]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(
      `query($id: IssueID!, $c: String) { issue(id: $id) { participants(after: $c) { nodes { username } pageInfo { hasNextPage hasPreviousPage } } } }`,
      {
        token: owner.token,
        variables: { id: gid('Issue', issue.id), c: page1.pageInfo.endCursor },
      },
    );
    expect(rest.body.data.issue.participants).toEqual({
      nodes: [{ username: commenter.user.username }, { username: secret.user.username }],
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
    });
  });

  it('budget: updatedBy, userDiscussionsCount and participants cost the same for 3 and 12 issues', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const query = `query($p: ID!) { project(fullPath: $p) { issues { nodes { iid ${FIELDS} } } } }`;
    const counts: number[] = [];
    let made = 0;
    for (const target of [3, 12]) {
      while (made < target) {
        const issue = await createIssue(owner.token, project.id, { title: `issue ${made}`, assignee_ids: made % 2 ? [dev.user.id] : [] });
        if (made % 3 === 0) await note(dev.token, issue.id, `note ${made}`);
        if (made % 4 === 0) await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: dev.token, body: { description: 'edited' } });
        made++;
      }
      await gql('{ currentUser { id } }', { token: owner.token });
      const res = await gql(query, { token: owner.token, variables: { p: project.path_with_namespace } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.project.issues.nodes).toHaveLength(target);
      counts.push(queryCount(res));
    }
    console.log(`issue fields budget: ${counts[0]} queries for 3 issues, ${counts[1]} for 12`);
    // The token, the project, the page, then one query each: discussion counts, participants, updatedBy's users.
    expect(counts).toEqual([6, 6]);
  });
});
