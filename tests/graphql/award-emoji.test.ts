// GraphQL award emoji: awardEmojiAdd/Remove/Toggle and the deprecated addAwardEmoji/removeAwardEmoji/toggleAwardEmoji
// (13.6 shapes) on issues, notes and snippets, through the same service as REST: success bodies, business failures in
// `errors`, not found / forbidden as the top-level resource error, and system notes refused.
import { describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createProject } from '../factories/projects.ts';
import { createProjectSnippet } from '../factories/snippets.ts';
import { createUser } from '../factories/users.ts';
import { api } from '../helpers/app.ts';
import { gql } from './helpers.ts';

const gid = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;
const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const mutationOf = (name: string, inputType: string, extra = '') =>
  `mutation($input: ${inputType}!) { ${name}(input: $input) { clientMutationId errors ${extra} awardEmoji { name emoji description unicode unicodeVersion user { username } } } }`;
const ADD = mutationOf('awardEmojiAdd', 'AwardEmojiAddInput');
const REMOVE = mutationOf('awardEmojiRemove', 'AwardEmojiRemoveInput');
const TOGGLE = mutationOf('awardEmojiToggle', 'AwardEmojiToggleInput', 'toggledOn');

async function setup() {
  const owner = await createUser();
  const dev = await createUser();
  const project = await createProject(owner.token, { visibility: 'private' });
  await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
  const issue = await createIssue(owner.token, project.id);
  return { owner, dev, project, issue, awardableId: gid('Issue', issue.id) };
}

const awardsOf = async (token: string, projectId: number, iid: number) =>
  ((await api.get(`/projects/${projectId}/issues/${iid}/award_emoji`, { token })).body as Array<{ name: string; user: { username: string } }>).map((a) => [
    a.name,
    a.user.username,
  ]);

describe('awardEmojiAdd', () => {
  it('awards an emoji (exact body, clientMutationId echoed); REST sees it; +1 is stored as thumbsup', async () => {
    const { dev, project, issue, awardableId } = await setup();
    const res = await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'tada', clientMutationId: 'm-1' } } });
    expect(res.body).toEqual({
      data: {
        awardEmojiAdd: {
          clientMutationId: 'm-1',
          errors: [],
          awardEmoji: {
            name: 'tada',
            emoji: '🎉',
            description: 'party popper',
            unicode: '1f389',
            unicodeVersion: '6.0',
            user: { username: dev.user.username },
          },
        },
      },
    });
    const plus = await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: '+1' } } });
    expect(plus.body.data.awardEmojiAdd).toMatchObject({ clientMutationId: null, errors: [], awardEmoji: { name: 'thumbsup', emoji: '👍' } });
    expect(await awardsOf(dev.token, project.id, issue.iid)).toEqual([
      ['tada', dev.user.username],
      ['thumbsup', dev.user.username],
    ]);
    const issueRes = await gql('query($id: IssueID!) { issue(id: $id) { upvotes awardEmoji { nodes { name } } } }', {
      token: dev.token,
      variables: { id: awardableId },
    });
    expect(issueRes.body).toEqual({ data: { issue: { upvotes: 1, awardEmoji: { nodes: [{ name: 'tada' }, { name: 'thumbsup' }] } } } });
  });

  it('business failures go in `errors`: a duplicate award, an unknown emoji name', async () => {
    const { dev, awardableId } = await setup();
    await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'tada' } } });
    const dup = await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'tada', clientMutationId: 'd' } } });
    expect(dup.body).toEqual({ data: { awardEmojiAdd: { clientMutationId: 'd', errors: ['Name has already been taken'], awardEmoji: null } } });
    const unknown = await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'no_such_emoji' } } });
    expect(unknown.body).toEqual({ data: { awardEmojiAdd: { clientMutationId: null, errors: ['Name is not a valid emoji name'], awardEmoji: null } } });
  });

  it('not found / forbidden is the top-level resource error; a system note cannot be awarded; an id of another type is an argument error', async () => {
    const { owner, project, issue, awardableId } = await setup();
    const stranger = await createUser();
    for (const token of [stranger.token, undefined]) {
      const res = await gql(ADD, { token, variables: { input: { awardableId, name: 'tada' } } });
      expect(res.body).toMatchObject({ data: { awardEmojiAdd: null }, errors: [{ message: RESOURCE_ERROR, path: ['awardEmojiAdd'] }] });
    }
    const missing = await gql(ADD, { token: owner.token, variables: { input: { awardableId: gid('Issue', 999999999), name: 'tada' } } });
    expect(missing.body).toMatchObject({ data: { awardEmojiAdd: null }, errors: [{ message: RESOURCE_ERROR }] });
    // Anonymous callers on a public issue may read it, not award.
    const publicProject = await createProject(owner.token, { visibility: 'public' });
    const publicIssue = await createIssue(owner.token, publicProject.id);
    const anon = await gql(ADD, { variables: { input: { awardableId: gid('Issue', publicIssue.id), name: 'tada' } } });
    expect(anon.body).toMatchObject({ data: { awardEmojiAdd: null }, errors: [{ message: RESOURCE_ERROR }] });

    await api.put(`/projects/${project.id}/issues/${issue.iid}`, { token: owner.token, body: { state_event: 'close' } });
    const system = ((await api.get(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token })).body as any[]).find((n) => n.system);
    const refused = await gql(ADD, { token: owner.token, variables: { input: { awardableId: gid('Note', system.id), name: 'tada' } } });
    expect(refused.body).toMatchObject({
      data: { awardEmojiAdd: null },
      errors: [{ message: 'Cannot award emoji to this resource', path: ['awardEmojiAdd'] }],
    });

    const wrong = await gql(ADD, { token: owner.token, variables: { input: { awardableId: gid('Label', 1), name: 'tada' } } });
    expect(wrong.body).toMatchObject({
      data: { awardEmojiAdd: null },
      errors: [
        {
          message:
            '"gid://gitlab/Label/1" is not a valid id for Issue or MergeRequest or Note or DiscussionNote or DiffNote or ProjectSnippet or PersonalSnippet or Snippet or Epic.',
          path: ['awardEmojiAdd'],
        },
      ],
    });
  });

  it('awards notes and project snippets by their global ids', async () => {
    const { owner, dev, project, issue } = await setup();
    const note = (await api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { token: owner.token, body: { body: 'hi' } })).body;
    const res = await gql(ADD, { token: dev.token, variables: { input: { awardableId: gid('Note', note.id), name: 'heart' } } });
    expect(res.body.data.awardEmojiAdd).toMatchObject({ errors: [], awardEmoji: { name: 'heart', emoji: '❤️', user: { username: dev.user.username } } });
    const noteAwards = (await api.get(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}/award_emoji`, { token: dev.token })).body as any[];
    expect(noteAwards.map((a) => a.name)).toEqual(['heart']);

    const snippet = await createProjectSnippet(owner.token, project.id, { visibility: 'private' });
    const onSnippet = await gql(ADD, { token: dev.token, variables: { input: { awardableId: gid('ProjectSnippet', snippet.id), name: 'rocket' } } });
    expect(onSnippet.body.data.awardEmojiAdd).toMatchObject({ errors: [], awardEmoji: { name: 'rocket' } });
    const snippetAwards = (await api.get(`/projects/${project.id}/snippets/${snippet.id}/award_emoji`, { token: dev.token })).body as any[];
    expect(snippetAwards.map((a) => a.name)).toEqual(['rocket']);
  });
});

describe('awardEmojiRemove and awardEmojiToggle', () => {
  it('removes the caller’s own award (awardEmoji always null); an award not made is an `errors` entry', async () => {
    const { owner, dev, project, issue, awardableId } = await setup();
    await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'thumbsup' } } });
    await gql(ADD, { token: owner.token, variables: { input: { awardableId, name: 'thumbsup' } } });
    const res = await gql(REMOVE, { token: dev.token, variables: { input: { awardableId, name: '+1', clientMutationId: 'r' } } });
    expect(res.body).toEqual({ data: { awardEmojiRemove: { clientMutationId: 'r', errors: [], awardEmoji: null } } });
    expect(await awardsOf(owner.token, project.id, issue.iid)).toEqual([['thumbsup', owner.user.username]]);
    const again = await gql(REMOVE, { token: dev.token, variables: { input: { awardableId, name: 'thumbsup' } } });
    expect(again.body).toEqual({
      data: { awardEmojiRemove: { clientMutationId: null, errors: ['User has not awarded emoji of type thumbsup on the awardable'], awardEmoji: null } },
    });
    const stranger = await createUser();
    const forbidden = await gql(REMOVE, { token: stranger.token, variables: { input: { awardableId, name: 'thumbsup' } } });
    expect(forbidden.body).toMatchObject({ data: { awardEmojiRemove: null }, errors: [{ message: RESOURCE_ERROR, path: ['awardEmojiRemove'] }] });
  });

  it('toggles on (with the award) and off (toggledOn false, no award)', async () => {
    const { dev, project, issue, awardableId } = await setup();
    const on = await gql(TOGGLE, { token: dev.token, variables: { input: { awardableId, name: 'eyes', clientMutationId: 't1' } } });
    expect(on.body).toEqual({
      data: {
        awardEmojiToggle: {
          clientMutationId: 't1',
          errors: [],
          toggledOn: true,
          awardEmoji: { name: 'eyes', emoji: '👀', description: 'eyes', unicode: '1f440', unicodeVersion: '6.0', user: { username: dev.user.username } },
        },
      },
    });
    expect(await awardsOf(dev.token, project.id, issue.iid)).toEqual([['eyes', dev.user.username]]);
    const off = await gql(TOGGLE, { token: dev.token, variables: { input: { awardableId, name: 'eyes' } } });
    expect(off.body).toEqual({ data: { awardEmojiToggle: { clientMutationId: null, errors: [], toggledOn: false, awardEmoji: null } } });
    expect(await awardsOf(dev.token, project.id, issue.iid)).toEqual([]);
    const bad = await gql(TOGGLE, { token: dev.token, variables: { input: { awardableId, name: 'nope_nope' } } });
    expect(bad.body).toEqual({
      data: { awardEmojiToggle: { clientMutationId: null, errors: ['Name is not a valid emoji name'], toggledOn: false, awardEmoji: null } },
    });
  });
});

describe('deprecated addAwardEmoji, removeAwardEmoji, toggleAwardEmoji', () => {
  it('answer as their replacements and are marked deprecated in the schema', async () => {
    const { dev, project, issue, awardableId } = await setup();
    const add = await gql(mutationOf('addAwardEmoji', 'AddAwardEmojiInput'), {
      token: dev.token,
      variables: { input: { awardableId, name: 'star', clientMutationId: 'a' } },
    });
    expect(add.body.data.addAwardEmoji).toMatchObject({
      clientMutationId: 'a',
      errors: [],
      awardEmoji: { name: 'star', user: { username: dev.user.username } },
    });
    const toggle = await gql(mutationOf('toggleAwardEmoji', 'ToggleAwardEmojiInput', 'toggledOn'), {
      token: dev.token,
      variables: { input: { awardableId, name: 'star' } },
    });
    expect(toggle.body.data.toggleAwardEmoji).toEqual({ clientMutationId: null, errors: [], toggledOn: false, awardEmoji: null });
    await gql(ADD, { token: dev.token, variables: { input: { awardableId, name: 'star' } } });
    const remove = await gql(mutationOf('removeAwardEmoji', 'RemoveAwardEmojiInput'), {
      token: dev.token,
      variables: { input: { awardableId, name: 'star', clientMutationId: 'x' } },
    });
    expect(remove.body).toEqual({ data: { removeAwardEmoji: { clientMutationId: 'x', errors: [], awardEmoji: null } } });
    expect(await awardsOf(dev.token, project.id, issue.iid)).toEqual([]);

    const schema = await gql('{ __type(name: "Mutation") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
    const fields = Object.fromEntries((schema.body.data.__type.fields as any[]).map((f) => [f.name, [f.isDeprecated, f.deprecationReason]]));
    expect(fields.addAwardEmoji).toEqual([true, 'Use awardEmojiAdd. Deprecated in 13.2.']);
    expect(fields.removeAwardEmoji).toEqual([true, 'Use awardEmojiRemove. Deprecated in 13.2.']);
    expect(fields.toggleAwardEmoji).toEqual([true, 'Use awardEmojiToggle. Deprecated in 13.2.']);
    expect(fields.awardEmojiAdd).toEqual([false, null]);
  });
});
