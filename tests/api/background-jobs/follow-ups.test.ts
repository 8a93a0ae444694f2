// Follow-up work runs on the queue, after the response of the change that caused it (issue 30): a push's pipelines
// are made by its `post_receive` job, a pipeline's success merges the merge requests waiting for it in a
// `pipeline_processing:pipeline_success` job, a notifying change's mail by the `mailers` job it wakes. Shown from outside: the causing request costs the same queries whether
// or not there is follow-up work (Server-Timing counts the request's own database handle; the prompt run has its
// own), and the follow-up has happened by the next request.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { backgroundJobs, notifications } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api, appFetch, queryCount, testDb } from '../../helpers/app.ts';
import { registerRunner, requestJob, type Fetch } from '../../helpers/ci-runner.ts';
import { ciProject, commitFiles } from '../pipelines/support.ts';

const fetch: Fetch = (input, init) => appFetch(input, init);
const YAML = 'build:\n  script: [echo ok]\n';

const commit = (token: string, projectId: number, path: string, content: string) =>
  api.post(`/projects/${projectId}/repository/commits`, {
    token,
    body: { branch: 'master', commit_message: `Add ${path}`, actions: [{ action: 'create', file_path: path, content }] },
  });

const pipelinesAt = async (token: string, projectId: number, sha: string) =>
  ((await api.get(`/projects/${projectId}/pipelines`, { token, query: { sha } })).body as Array<{ sha: string; source?: string }>).length;

describe('follow-up work runs on the queue', () => {
  it("a push's pipelines are made after its response: a commit with a CI configuration costs what one without costs", async () => {
    const { owner, project } = await ciProject(null);
    const plain = await commit(owner.token, project.id, 'notes.txt', 'plain');
    const withCi = await commit(owner.token, project.id, '.gitlab-ci.yml', YAML);
    expect([plain.status, withCi.status]).toEqual([201, 201]);
    expect(queryCount(withCi)).toBe(queryCount(plain));
    // By the next request the post_receive job has made the push pipeline.
    expect(await pipelinesAt(owner.token, project.id, withCi.body.id)).toBe(1);
    expect(await pipelinesAt(owner.token, project.id, plain.body.id)).toBe(0);
  });

  it("a runner's last job update merges nothing itself: the waiting merge happens in the pipeline_success job", async () => {
    /** A project with a pipeline on `feature`, optionally an MR from it waiting for that pipeline; its job claimed. */
    async function claimedFeatureJob(waiting: boolean) {
      const { owner, project } = await ciProject(YAML);
      await commitFiles(owner.token, project.id, { 'feature.txt': 'x' }, 'feature', 'Add feature');
      const runnerToken = (await api.get(`/projects/${project.id}`, { token: owner.token })).body.runners_token as string;
      const runner = await registerRunner(fetch, runnerToken);
      // The master pipeline's job first: finished here, so only the feature pipeline is left running.
      for (let job = await requestJob(fetch, runner); job; job = await requestJob(fetch, runner)) {
        if (job.git_info.ref === 'feature') {
          let iid: number | null = null;
          if (waiting) {
            const mr = await api.post(`/projects/${project.id}/merge_requests`, {
              token: owner.token,
              body: { source_branch: 'feature', target_branch: 'master', title: 'Feature' },
            });
            iid = mr.body.iid as number;
            const asked = await api.put(`/projects/${project.id}/merge_requests/${iid}/merge`, {
              token: owner.token,
              body: { merge_when_pipeline_succeeds: true },
            });
            expect([asked.status, asked.body.state]).toEqual([200, 'opened']);
          }
          return { owner, project, job, iid };
        }
        expect((await api.put(`/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).status).toBe(200);
      }
      throw new Error('no feature job');
    }
    const alone = await claimedFeatureJob(false);
    const awaited = await claimedFeatureJob(true);
    const finish = (job: { id: number; token: string }) => api.put(`/jobs/${job.id}`, { body: { token: job.token, state: 'success' } });
    const [quiet, busy] = [await finish(alone.job), await finish(awaited.job)];
    expect([quiet.status, busy.status]).toEqual([200, 200]);
    expect(queryCount(busy)).toBe(queryCount(quiet));
    const merged = await api.get(`/projects/${awaited.project.id}/merge_requests/${awaited.iid}`, { token: awaited.owner.token });
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { id: awaited.owner.user.id } });
  });

  it("a notifying change's mail is sent after its response, by the mailers job the change enqueued in its batch", async () => {
    const owner = await createUser();
    const assignee = await createUser();
    const project = await createProject(owner.token);
    await addMember(owner.token, 'projects', project.id, assignee.user.id, 30);
    const mailed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const created = await api.post(`/projects/${project.id}/issues`, { token: owner.token, body: { title: 'Tell them', assignee_ids: [assignee.user.id] } });
    expect(created.status).toBe(201);
    // No run of the scheduled work in between: by the next request the outbox row is delivered and the mail went out.
    const [event] = await testDb()
      .db.select()
      .from(notifications)
      .where(and(eq(notifications.targetType, 'Issue'), eq(notifications.targetId, created.body.id)));
    expect(event).toMatchObject({ targetType: 'Issue', action: 'new_issue', recipients: [{ user_id: assignee.user.id, reason: 'assigned' }] });
    expect(event!.deliveredAt).toBeInstanceOf(Date);
    const lines = mailed.mock.calls.map(([line]) => JSON.parse(String(line))).filter((l) => l.msg === 'notification email' && l.user_id === assignee.user.id);
    expect(lines.map((l) => l.subject)).toEqual([`${project.name} | Tell them (#${created.body.iid})`]);
    // The woken job ran and is gone: nothing of the mailers queue waits.
    expect(await testDb().db.$count(backgroundJobs, sql`${backgroundJobs.queue} = 'mailers' AND NOT ${backgroundJobs.dead}`)).toBe(0);
  });
});
