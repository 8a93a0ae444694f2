// Budget: a project's merge requests with their authors, assignees, labels and diff statistics cost a constant number
// of queries, whatever the page size (per-request loaders over the batched read verbs; the diffs of every MR of the
// project come from one changedPaths statement).
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../factories/groups.ts';
import { createIssue } from '../factories/issues.ts';
import { createLabel } from '../factories/labels.ts';
import { api, queryCount } from '../helpers/app.ts';
import { branch, mrProject, mrs } from '../api/merge-requests/support.ts';
import { gql } from './helpers.ts';

const MRS = 50;
/** The token's lookup, the project, the MR page, the assignees (user loader), the labels, the diffs. */
const BUDGET = 6;

let fx: Awaited<ReturnType<typeof mrProject>>;
/** Four more projects (the developer of `fx` is made a developer of each), each with two MRs. */
const others: Array<Awaited<ReturnType<typeof mrProject>>> = [];

beforeAll(async () => {
  fx = await mrProject('gqlmrbudget');
  await createLabel(fx.owner.token, 'projects', fx.project.id, { name: 'bug' });
  await createLabel(fx.owner.token, 'projects', fx.project.id, { name: 'feature' });
  for (let i = 0; i < MRS; i++) {
    await branch(fx, `topic-${i}`, 'topic');
    const res = await api.post(mrs(fx), {
      token: fx.owner.token,
      body: {
        source_branch: `topic-${i}`,
        target_branch: 'master',
        title: `MR ${i}`,
        labels: i % 2 ? 'bug,feature' : 'bug',
        assignee_ids: [fx.developer.user.id, fx.reporter.user.id],
      },
    });
    expect(res.status, res.text).toBe(201);
  }
  for (let p = 0; p < 4; p++) {
    const o = await mrProject('gqlmrbudgetp');
    await addMember(o.owner.token, 'projects', o.project.id, fx.developer.user.id, 30);
    await createLabel(o.owner.token, 'projects', o.project.id, { name: 'bug' });
    for (let i = 0; i < 2; i++) {
      await branch(o, `b-${i}`, 'topic');
      const res = await api.post(mrs(o), {
        token: o.owner.token,
        body: { source_branch: `b-${i}`, target_branch: 'master', title: `P${p} MR ${i}`, labels: 'bug', assignee_ids: [o.developer.user.id] },
      });
      expect(res.status, res.text).toBe(201);
    }
    others.push(o);
  }
  // The viewer's first request records the token's use (a write): made here, outside the counted requests.
  await gql('{ currentUser { username } }', { token: fx.developer.token });
}, 300_000);

describe('Project.mergeRequests budget', () => {
  const query = (n: number) =>
    gql(
      `query($path: ID!) { project(fullPath: $path) { mergeRequests(first: ${n}) { nodes {
        iid title author { username } assignees { nodes { username } } labels { nodes { title } }
        diffStats { path additions deletions } diffStatsSummary { additions deletions fileCount } } } } }`,
      { token: fx.developer.token, variables: { path: fx.project.path_with_namespace } },
    );

  it(`costs the same ${BUDGET} queries for 5 and ${MRS} MRs with authors, assignees, labels and diff stats`, async () => {
    const few = await query(5);
    const many = await query(MRS);
    expect(few.body.errors).toBeUndefined();
    expect(many.body.errors).toBeUndefined();
    const nodes = many.body.data.project.mergeRequests.nodes;
    expect(nodes).toHaveLength(MRS);
    expect(few.body.data.project.mergeRequests.nodes).toHaveLength(5);
    for (const n of nodes) {
      const i = Number(n.title.slice(3));
      expect(n.author.username).toBe(fx.owner.user.username);
      expect(n.assignees.nodes.map((u: any) => u.username).sort()).toEqual([fx.developer.user.username, fx.reporter.user.username].sort());
      expect(n.labels.nodes.map((l: any) => l.title)).toEqual(i % 2 ? ['bug', 'feature'] : ['bug']);
      expect(n.diffStats).toEqual([{ path: 'list.txt', additions: 1, deletions: 1 }]);
      expect(n.diffStatsSummary).toEqual({ additions: 1, deletions: 1, fileCount: 1 });
    }
    console.log(`Project.mergeRequests with author, assignees, labels, diffStats: ${queryCount(few)} queries for 5 MRs, ${queryCount(many)} for ${MRS}`);
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(few));
    expect(queryCount(many)).toBeLessThanOrEqual(BUDGET);
  });

  it('defaultMergeCommitMessage costs one statement for every MR of the page, reads the cached closing issues and writes nothing', async () => {
    const issue = await createIssue(fx.owner.token, fx.project.id, { title: 'To close' });
    const first = (await api.get(mrs(fx), { token: fx.owner.token, query: { per_page: 1, order_by: 'created_at', sort: 'desc' } })).body[0] as { iid: number };
    const edited = await api.put(`${mrs(fx)}/${first.iid}`, { token: fx.owner.token, body: { description: `Closes #${issue.iid}` } });
    expect(edited.status, edited.text).toBe(200);
    const messages = (n: number) =>
      gql(`query($path: ID!) { project(fullPath: $path) { mergeRequests(first: ${n}) { nodes { iid defaultMergeCommitMessage } } } }`, {
        token: fx.developer.token,
        variables: { path: fx.project.path_with_namespace },
      });
    const one = await messages(1);
    const many = await messages(MRS);
    expect(many.body.errors).toBeUndefined();
    const node = many.body.data.project.mergeRequests.nodes.find((m: { iid: string }) => Number(m.iid) === first.iid);
    expect(node.defaultMergeCommitMessage).toBe(
      `Merge branch '${(edited.body as { source_branch: string }).source_branch}' into 'master'\n\nMR ${MRS - 1}\n\nCloses #${issue.iid}\n\nSee merge request ${fx.project.path_with_namespace}!${first.iid}`,
    );
    console.log(`defaultMergeCommitMessage: ${queryCount(one)} queries for 1 MR, ${queryCount(many)} for ${MRS}`);
    // The token, the project, the page, the closing issues: no query per MR, and no write.
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(one));
    expect(queryCount(many)).toBeLessThanOrEqual(4);
  });
});

describe('Project.mergeRequests nested under a list of projects', () => {
  const query = (n: number, diffs: boolean) =>
    gql(
      `query($ids: [ID!]) { projects(ids: $ids) { nodes { fullPath mergeRequests(first: 5) { count nodes {
        iid author { username } assignees { nodes { username } } labels { nodes { title } }
        userPermissions { updateMergeRequest canMerge } ${diffs ? 'diffStatsSummary { fileCount }' : ''} } } } } }`,
      { token: fx.developer.token, variables: { ids: others.slice(0, n).map((o) => `gid://gitlab/Project/${o.project.id}`) } },
    );

  it('costs the same for 2 and 4 projects; diff statistics add one statement per project', async () => {
    const [two, four] = [await query(2, false), await query(4, false)];
    expect(two.body.errors).toBeUndefined();
    expect(four.body.errors).toBeUndefined();
    const nodes = four.body.data.projects.nodes;
    expect(nodes).toHaveLength(4);
    for (const p of nodes) {
      expect(p.mergeRequests.count).toBe(2);
      expect(p.mergeRequests.nodes.map((m: any) => m.labels.nodes.map((l: any) => l.title))).toEqual([['bug'], ['bug']]);
      expect(p.mergeRequests.nodes.every((m: any) => m.userPermissions.updateMergeRequest)).toBe(true);
    }
    const [twoDiffs, fourDiffs] = [await query(2, true), await query(4, true)];
    expect(fourDiffs.body.data.projects.nodes.flatMap((p: any) => p.mergeRequests.nodes.map((m: any) => m.diffStatsSummary.fileCount))).toEqual(
      Array(8).fill(1),
    );
    console.log(
      `projects { mergeRequests }: ${queryCount(two)} queries for 2 projects, ${queryCount(four)} for 4; with diffStatsSummary ${queryCount(twoDiffs)} and ${queryCount(fourDiffs)}`,
    );
    expect(queryCount(four)).toBeLessThanOrEqual(queryCount(two));
    expect(queryCount(four)).toBeLessThanOrEqual(7);
    expect(queryCount(fourDiffs) - queryCount(twoDiffs)).toBeLessThanOrEqual(2);
  });
});
