// The write budget (issue 13, DESIGN.md "Cold start and round trips"): creating an issue, a note, an award emoji and
// a label costs at most 3 round trips and opens no WebSocket. Read from Server-Timing through HTTP, so with
// TEST_DB=postgres it is the production driver (neon-http through the local `/sql` shim) that is measured; on PGlite
// the same counting model applies (a statement or a batch is one round trip, an interactive transaction adds BEGIN
// and COMMIT), so the same assertions hold there.
import { describe, expect, inject, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api as plainApi, dbTiming, type TestResponse } from '../../helpers/app.ts';

/** The in-process client, each POST timed end to end for the figures `budget` prints. */
const api = { ...plainApi, post: (path: string, o?: Parameters<typeof plainApi.post>[1]) => ((started = performance.now()), plainApi.post(path, o)) };

const figures: string[] = [];
let started = 0;
function budget(name: string, res: TestResponse, maxRoundTrips = 3, status = 201) {
  expect(res.status, res.text).toBe(status);
  const t = dbTiming(res);
  figures.push(
    `${name}: ${t.roundTrips} round trips, ${t.queries} queries, ${t.ws ? 'ws' : 'no ws'}, db ${t.ms} ms, ${(performance.now() - started).toFixed(1)} ms in all`,
  );
  expect.soft(t.ws, name).toBe(false);
  expect.soft(t.roundTrips, name).toBeLessThanOrEqual(maxRoundTrips);
}

describe(`write budget (${inject('database').kind})`, () => {
  it('issue, note, award emoji and label creates: <= 3 round trips each, no WebSocket', async () => {
    const owner = await createUser();
    const dev = await createUser();
    const project = await createProject(owner.token, { visibility: 'private' });
    await addMember(owner.token, 'projects', project.id, dev.user.id, 30);
    const milestone = await api.post(`/projects/${project.id}/milestones`, { token: owner.token, body: { title: 'm1' } });
    await api.get('/user', { token: owner.token }); // the token's first use records last_used_at; measure warm requests

    // Assignees, milestone and labels are decided in SQL inside the one batch: auth, project, batch.
    const issue = await api.post(`/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'Budget', description: 'no mentions', labels: 'bug,ux', assignee_ids: [dev.user.id], milestone_id: milestone.body.id },
    });
    budget('POST /projects/:id/issues (assignee, milestone, labels)', issue);
    expect(issue.body).toMatchObject({ assignees: [{ id: dev.user.id }], milestone: { id: milestone.body.id }, labels: ['bug', 'ux'] });
    const iid = issue.body.iid as number;
    const notes = `/projects/${project.id}/issues/${iid}/notes`;
    budget('POST /projects/:id/issues/:iid/notes', await api.post(notes, { token: owner.token, body: { body: 'no mentions' } }));
    budget(
      'POST /projects/:id/issues/:iid/award_emoji',
      await api.post(`/projects/${project.id}/issues/${iid}/award_emoji`, { token: owner.token, body: { name: 'thumbsup' } }),
    );
    budget('POST /projects/:id/labels', await api.post(`/projects/${project.id}/labels`, { token: owner.token, body: { name: 'budget', color: '#FF0000' } }));

    // Who gets a mention to-do is the policy's decision in lib/policy.ts, taken on the candidates read with the project
    // (an issue) or the noteable (a note): still 3. A confidential issue with assignees also reads its assignable
    // assignees first (they may read it): one more round trip, still no WebSocket.
    const mentioned = await api.post(`/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'Mentions', description: `cc @${dev.user.username}`, assignee_ids: [dev.user.id] },
    });
    budget('POST /projects/:id/issues (with a mention)', mentioned);
    const secret = await api.post(`/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'Secret', description: `cc @${dev.user.username}`, assignee_ids: [dev.user.id], confidential: true },
    });
    budget('POST /projects/:id/issues (confidential, assignee, mention)', secret, 4);
    budget(
      'POST /projects/:id/issues/:iid/notes (with a mention)',
      await api.post(notes, { token: owner.token, body: { body: `ping @${dev.user.username}` } }),
    );
    console.log(`write budget (${inject('database').kind}):\n  ${figures.join('\n  ')}`);
  });
});
