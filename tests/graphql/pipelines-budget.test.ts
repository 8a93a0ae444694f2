// Budget: a project's pipelines with their stages, groups, jobs and the jobs' needs cost a constant number of SQL
// queries whatever the number of pipelines and jobs (per-request loaders: one statement for the page of pipelines,
// one for the latest jobs of all of them with their needs; stages and groups are built from those jobs).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, queryCount } from '../helpers/app.ts';
import { ciProject } from '../api/pipelines/support.ts';
import { gql } from './helpers.ts';

/** The token's lookup, the project, the page of pipelines, the latest jobs of all of them with their needs. */
const BUDGET = 4;
const PIPELINES = 6;

let fx: Awaited<ReturnType<typeof ciProject>>;

beforeAll(async () => {
  fx = await ciProject();
  // The push made pipeline 1; five more on master (4 jobs each).
  for (let i = 1; i < PIPELINES; i++)
    expect((await api.post(`/projects/${fx.project.id}/pipeline`, { token: fx.owner.token, body: { ref: 'master' } })).status).toBe(201);
  // The viewer's first request records the token's use (a write): made here, outside the counted requests.
  await gql('{ currentUser { username } }', { token: fx.owner.token });
}, 120_000);

describe('Project.pipelines budget', () => {
  const query = (n: number) =>
    gql(
      `query($path: ID!) { project(fullPath: $path) { pipelines(first: ${n}) { nodes {
        iid status detailedStatus { group label }
        stages(first: 3) { nodes { name detailedStatus { group } groups(first: 3) { nodes { name size detailedStatus { group }
          jobs(first: 3) { nodes { name detailedStatus { group } needs(first: 3) { nodes { name } } } } } } } } } } } }`,
      { token: fx.owner.token, variables: { path: fx.project.path_with_namespace } },
    );

  it(`costs the same ${BUDGET} queries for 2 and ${PIPELINES} pipelines (8 and 24 jobs)`, async () => {
    const few = await query(2);
    const many = await query(PIPELINES);
    expect(few.body.errors).toBeUndefined();
    expect(many.body.errors).toBeUndefined();
    const nodes = many.body.data.project.pipelines.nodes;
    expect(nodes.map((p: { iid: string }) => p.iid)).toEqual(['6', '5', '4', '3', '2', '1']);
    const rspec = nodes[0].stages.nodes[1].groups.nodes[1].jobs.nodes[0];
    expect(rspec).toEqual({ name: 'rspec', detailedStatus: { group: 'created' }, needs: { nodes: [{ name: 'build' }] } });
    expect(few.body.data.project.pipelines.nodes).toHaveLength(2);
    expect(queryCount(many)).toBeLessThanOrEqual(queryCount(few));
    expect(queryCount(few)).toBeLessThanOrEqual(BUDGET);
  });
});
