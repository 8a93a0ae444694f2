// The background job queue end to end. One file, run in order: on PostgreSQL the test files share one database, and
// these tests run the runner and count a queue's pending jobs, so nothing else here may claim or enqueue meanwhile
// (other files only enqueue project_destroy/group_destroy jobs; the counts below are taken where those cannot land).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claimJobs, completeJob, failJob } from '../../../db/queries/background-jobs.ts';
import { backgroundJobs, notifications, type JobMeta } from '../../../db/schema/index.ts';
import { runJobs, retryDelaySeconds } from '../../../functions/background-jobs/runner.ts';
import { enqueuePeriodicJobs, runScheduledWork } from '../../../functions/background-jobs/scheduled.ts';
import { createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser, unique } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';
import { gql } from '../../graphql/helpers.ts';

const db = () => testDb().db;
const jobsWhere = (where: ReturnType<typeof sql>) => db().select().from(backgroundJobs).where(where).orderBy(backgroundJobs.id);
const count = async (table: 'projects' | 'namespaces', id: number) =>
  Number(((await db().execute(sql`SELECT 1 FROM ${sql.identifier(table)} WHERE id = ${id}`)) as any).rows?.length ?? 0);

/** Inserts jobs as a request would, due at `dueIn` seconds from now (in the future: no runner takes them). */
async function insertJobs(queue: string, workerClass: string, metas: JobMeta[], options: { dueIn?: number; args?: Record<string, unknown> } = {}) {
  const rows = await db()
    .insert(backgroundJobs)
    .values(
      metas.map((meta) => ({
        queue,
        workerClass,
        args: options.args ?? {},
        meta,
        runAt: sql`now() + make_interval(secs => ${options.dueIn ?? 3600})` as unknown as Date,
      })),
    )
    .returning({ id: backgroundJobs.id });
  return rows.map((r) => r.id);
}

const DELETE_JOBS = `mutation($input: AdminBackgroundQueuesDeleteJobsInput!) {
  adminBackgroundQueuesDeleteJobs(input: $input) { clientMutationId errors result { completed deletedJobs queueSize } }
}`;
const deleteJobs = (token: string, input: Record<string, unknown>) => gql(DELETE_JOBS, { token, variables: { input } });

describe('jobs enqueued by real actions', () => {
  it('DELETE /projects/:id enqueues project_destroy with the context metadata; the runner purges the project and the job goes', async () => {
    const { user, token } = await createUser();
    const p = await createProject(token);
    const res = await api.delete(`/projects/${p.id}`, { token });
    expect(res.status).toBe(202);
    const jobs = await jobsWhere(sql`${backgroundJobs.args} @> ${JSON.stringify({ project_id: p.id })}::jsonb AND ${backgroundJobs.queue} = 'project_destroy'`);
    expect(
      jobs.map((j) => ({ queue: j.queue, workerClass: j.workerClass, args: j.args, meta: j.meta, attempts: j.attempts, dead: j.dead, claimedBy: j.claimedBy })),
    ).toEqual([
      {
        queue: 'project_destroy',
        workerClass: 'ProjectDestroyWorker',
        args: { project_id: p.id },
        meta: {
          user: user.username,
          project: p.path_with_namespace,
          root_namespace: user.username,
          subscription_plan: 'free',
          caller_id: 'DELETE /api/:version/projects/:id',
          feature_category: 'source_code_management',
        },
        attempts: 0,
        dead: false,
        claimedBy: null,
      },
    ]);
    // The deletion answered at once: the path is free before any job ran.
    expect((await api.get(`/projects/${p.id}`, { token })).status).toBe(404);
    expect(await count('projects', p.id)).toBe(1);

    const outcomes = await runJobs({ ctx: testDb() }, { queues: ['project_destroy'] });
    expect(outcomes.filter((o) => o.id === jobs[0]!.id)).toEqual([
      { id: jobs[0]!.id, queue: 'project_destroy', workerClass: 'ProjectDestroyWorker', outcome: 'done', result: { purgedProjects: 1, purgedGroups: 0 } },
    ]);
    expect(await count('projects', p.id)).toBe(0);
    expect(await jobsWhere(sql`${backgroundJobs.id} = ${jobs[0]!.id}`)).toEqual([]);
  });

  it('DELETE /groups/:id enqueues group_destroy; its job purges the group, its subgroup and their projects', async () => {
    const { user, token } = await createUser();
    const g = await createGroup(token);
    const sub = await createGroup(token, { parentId: g.id });
    const inSub = await createProject(token, { namespaceId: sub.id });
    expect((await api.delete(`/groups/${g.id}`, { token })).status).toBe(202);
    const jobs = await jobsWhere(sql`${backgroundJobs.args} @> ${JSON.stringify({ group_id: g.id })}::jsonb AND ${backgroundJobs.queue} = 'group_destroy'`);
    expect(jobs.map((j) => [j.workerClass, j.meta])).toEqual([
      [
        'GroupDestroyWorker',
        {
          user: user.username,
          root_namespace: g.full_path,
          subscription_plan: 'free',
          caller_id: 'DELETE /api/:version/groups/:id',
          feature_category: 'subgroups',
        },
      ],
    ]);
    const outcomes = await runJobs({ ctx: testDb() }, { queues: ['group_destroy'] });
    expect(outcomes.find((o) => o.id === jobs[0]!.id)).toMatchObject({ outcome: 'done', result: { purgedGroups: 2, purgedProjects: 1 } });
    expect([await count('namespaces', g.id), await count('namespaces', sub.id), await count('projects', inSub.id)]).toEqual([0, 0, 0]);
  });

  it('a project whose job an administrator dropped is still purged by the periodic sweep', async () => {
    const admin = await createAdmin();
    const { user, token } = await createUser();
    const p = await createProject(token);
    expect((await api.delete(`/projects/${p.id}`, { token })).status).toBe(202);
    const dropped = await deleteJobs(admin.token, { queueName: 'project_destroy', project: p.path_with_namespace, user: user.username });
    expect(dropped.body.data.adminBackgroundQueuesDeleteJobs.result.deletedJobs).toBe(1);
    const outcomes = await runScheduledWork(testDb(), 'test');
    expect(outcomes.find((o) => o.queue === 'cronjob:purge_deleted_namespaces')).toMatchObject({ outcome: 'done' });
    expect(await count('projects', p.id)).toBe(0);
  });
});

describe('retries', () => {
  it("Sidekiq's backoff: count**4 + 15 + rand(10) * (count + 1) seconds", () => {
    expect([0, 1, 2, 3].map((c) => retryDelaySeconds(c, () => 0))).toEqual([15, 16, 31, 96]);
    expect([0, 1, 2, 3].map((c) => retryDelaySeconds(c, () => 0.99))).toEqual([24, 34, 58, 132]);
  });

  it('a failing job is retried with backoff 3 times (ApplicationWorker retry: 3), then dead and kept; a dead job never runs', async () => {
    // A project_destroy job without its argument: its worker fails every time.
    const [id] = await insertJobs('project_destroy', 'ProjectDestroyWorker', [{ user: unique('nobody') }], { dueIn: 0, args: {} });
    const bounds = [
      [15, 24],
      [16, 34],
      [31, 58],
    ];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const outcomes = await runJobs({ ctx: testDb() }, { queues: ['project_destroy'] });
      const mine = outcomes.filter((o) => o.id === id);
      expect(mine).toEqual([
        { id, queue: 'project_destroy', workerClass: 'ProjectDestroyWorker', outcome: attempt <= 3 ? 'retry' : 'dead', error: 'argument project_id missing' },
      ]);
      const [row] = await db()
        .select({
          attempts: backgroundJobs.attempts,
          dead: backgroundJobs.dead,
          lastError: backgroundJobs.lastError,
          claimedBy: backgroundJobs.claimedBy,
          delay: sql<number>`extract(epoch from ${backgroundJobs.runAt} - now())`.mapWith(Number),
        })
        .from(backgroundJobs)
        .where(eq(backgroundJobs.id, id!));
      expect(row).toMatchObject({ attempts: attempt, dead: attempt === 4, lastError: 'argument project_id missing', claimedBy: null });
      if (attempt <= 3) {
        const [low, high] = bounds[attempt - 1]!;
        expect(row!.delay).toBeGreaterThan(low! - 2);
        expect(row!.delay).toBeLessThanOrEqual(high!);
        // Not due yet: a run now leaves it alone.
        expect((await runJobs({ ctx: testDb() }, { queues: ['project_destroy'] })).some((o) => o.id === id)).toBe(false);
        await db()
          .update(backgroundJobs)
          .set({ runAt: sql`now()` })
          .where(eq(backgroundJobs.id, id!));
      }
    }
    await db()
      .update(backgroundJobs)
      .set({ runAt: sql`now() - interval '1 day'` })
      .where(eq(backgroundJobs.id, id!));
    expect((await runJobs({ ctx: testDb() }, { queues: ['project_destroy'] })).some((o) => o.id === id)).toBe(false);
    expect((await jobsWhere(sql`${backgroundJobs.id} = ${id}`)).map((j) => [j.dead, j.attempts])).toEqual([[true, 4]]);
    // Dead jobs are not the queue's: the administrator's deletion leaves them (they go after 6 months).
    const admin = await createAdmin();
    const res = await deleteJobs(admin.token, { queueName: 'project_destroy', user: (await jobsWhere(sql`${backgroundJobs.id} = ${id}`))[0]!.meta.user });
    expect(res.body.data.adminBackgroundQueuesDeleteJobs.result.deletedJobs).toBe(0);
    await db()
      .update(backgroundJobs)
      .set({ runAt: sql`now() - interval '7 months'` })
      .where(eq(backgroundJobs.id, id!));
    await runJobs({ ctx: testDb() }, { queues: ['project_destroy'] });
    expect(await jobsWhere(sql`${backgroundJobs.id} = ${id}`)).toEqual([]);
  });

  it('a job whose runner died (lease over) is pending again and runs once more', async () => {
    const [id] = await insertJobs('group_destroy', 'GroupDestroyWorker', [{ user: unique('lease') }], { dueIn: 0, args: { group_id: 0 } });
    const [claimed] = (await claimJobs(db(), ['group_destroy'], 'dead-runner', 100, 60)).filter((j) => j.id === id);
    expect(claimed).toMatchObject({ attempts: 1, claimedBy: 'dead-runner' });
    expect((await runJobs({ ctx: testDb() }, { queues: ['group_destroy'] })).some((o) => o.id === id)).toBe(false);
    await db()
      .update(backgroundJobs)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(backgroundJobs.id, id!));
    expect((await runJobs({ ctx: testDb() }, { queues: ['group_destroy'] })).filter((o) => o.id === id).map((o) => o.outcome)).toEqual(['done']);
    // The dead runner's late completion deletes nothing of another claim (the job is gone already here).
    await completeJob(db(), id!, 'dead-runner');
    expect(await jobsWhere(sql`${backgroundJobs.id} = ${id}`)).toEqual([]);
  });
});

describe('the scheduled work', () => {
  it('enqueues each periodic job once while one is pending, runs them all, and a tick later enqueues them again', async () => {
    const periodic = [
      'cronjob:purge_deleted_namespaces',
      'cronjob:remove_expired_members',
      'cronjob:object_pool_cleanup',
      'cronjob:prune_old_events',
      'cronjob:prune_rate_limits',
      'mailers',
    ];
    const pendingOf = () =>
      jobsWhere(
        sql`${backgroundJobs.queue} IN ('cronjob:purge_deleted_namespaces', 'cronjob:remove_expired_members', 'cronjob:object_pool_cleanup', 'cronjob:prune_old_events', 'cronjob:prune_rate_limits', 'mailers') AND NOT ${backgroundJobs.dead}`,
      );
    await runScheduledWork(testDb(), 'test');
    expect(await pendingOf()).toEqual([]);
    expect(await enqueuePeriodicJobs({ ctx: testDb() })).toEqual(periodic);
    expect(await enqueuePeriodicJobs({ ctx: testDb() })).toEqual([]);
    const jobs = await pendingOf();
    expect(jobs.map((j) => [j.queue, j.meta])).toEqual([
      ['cronjob:purge_deleted_namespaces', { feature_category: 'subgroups' }],
      ['cronjob:remove_expired_members', { feature_category: 'authentication_and_authorization' }],
      ['cronjob:object_pool_cleanup', { feature_category: 'gitaly' }],
      ['cronjob:prune_old_events', { feature_category: 'users' }],
      ['cronjob:prune_rate_limits', { feature_category: 'authentication_and_authorization' }],
      ['mailers', { feature_category: 'issue_tracking' }],
    ]);
    // A notifying change wakes the deliverer: here the tick's mailers job is pending, so the change enqueues no second
    // one, and its prompt run (after the response) takes that job and delivers the outbox.
    const { token } = await createUser();
    const p = await createProject(token);
    const issue = await api.post(`/projects/${p.id}/issues`, { token, body: { title: 'Mail me' } });
    expect(issue.status).toBe(201);
    const outbox = () => db().select({ deliveredAt: notifications.deliveredAt }).from(notifications).where(eq(notifications.projectId, p.id));
    expect((await outbox()).map((r) => r.deliveredAt instanceof Date)).toEqual([true]);
    expect((await pendingOf()).map((j) => j.queue)).toEqual(periodic.filter((q) => q !== 'mailers'));
    const outcomes = await runScheduledWork(testDb(), 'test');
    expect(outcomes.filter((o) => periodic.includes(o.queue)).map((o) => [o.queue, o.outcome])).toEqual(periodic.map((q) => [q, 'done']));
    expect(Object.keys(outcomes.find((o) => o.queue === 'mailers')!.result!)).toEqual(['events', 'messages', 'purged']);
    expect(await pendingOf()).toEqual([]);
  });
});

describe('adminBackgroundQueuesDeleteJobs', () => {
  it('refuses non-administrators at the top level, before anything else', async () => {
    const { token } = await createUser();
    for (const input of [{ queueName: 'project_destroy', user: 'x' }, { queueName: 'nope' }, { queueName: 'nope', user: 'x' }]) {
      const res = await deleteJobs(token, input);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: { adminBackgroundQueuesDeleteJobs: null },
        errors: [{ message: 'You must be an admin to use this mutation', locations: [{ line: 2, column: 3 }], path: ['adminBackgroundQueuesDeleteJobs'] }],
      });
    }
    const anonymous = await gql(DELETE_JOBS, { variables: { input: { queueName: 'project_destroy', user: 'x' } } });
    expect(anonymous.body.errors.map((e: any) => e.message)).toEqual(['You must be an admin to use this mutation']);
  });

  it("no metadata: the payload's errors, checked before the queue; an unknown queue: a top-level error", async () => {
    const admin = await createAdmin();
    for (const queueName of ['project_destroy', 'nope']) {
      const res = await deleteJobs(admin.token, { queueName, clientMutationId: 'm1' });
      expect(res.body).toEqual({ data: { adminBackgroundQueuesDeleteJobs: { clientMutationId: 'm1', errors: ['No metadata provided'], result: null } } });
    }
    const nullOnly = await deleteJobs(admin.token, { queueName: 'project_destroy', user: null });
    expect(nullOnly.body.data.adminBackgroundQueuesDeleteJobs.errors).toEqual(['No metadata provided']);
    const res = await deleteJobs(admin.token, { queueName: 'nope', user: 'x' });
    expect(res.body).toEqual({
      data: { adminBackgroundQueuesDeleteJobs: null },
      errors: [{ message: 'Queue nope not found', locations: [{ line: 2, column: 3 }], path: ['adminBackgroundQueuesDeleteJobs'] }],
    });
  });

  it('matches every key given against the job metadata; counts exact; a claimed job is never deleted', async () => {
    const admin = await createAdmin();
    const queue = 'cronjob:object_pool_cleanup';
    const worker = 'ObjectPoolCleanupWorker';
    const keys = [
      ['user', 'user'],
      ['project', 'project'],
      ['rootNamespace', 'root_namespace'],
      ['subscriptionPlan', 'subscription_plan'],
      ['callerId', 'caller_id'],
      ['relatedClass', 'related_class'],
      ['featureCategory', 'feature_category'],
    ] as const;
    const tag = unique('tag');
    for (const [arg, key] of keys) {
      const value = `${tag}-${key}`;
      // One job matching, one with another value, one without the key.
      await insertJobs(queue, worker, [{ [key]: value, user: key === 'user' ? value : tag }, { [key]: `${value}-other`, user: tag }, { user: tag }]);
      const res = await deleteJobs(admin.token, { queueName: queue, [arg]: value });
      expect(res.body, key).toEqual({
        data: { adminBackgroundQueuesDeleteJobs: { clientMutationId: null, errors: [], result: { completed: true, deletedJobs: 1, queueSize: 2 } } },
      });
      // The rest go by `user` (every key must match: the user and a value no job has deletes nothing).
      const none = await deleteJobs(admin.token, { queueName: queue, user: tag, [arg]: `${value}-missing` });
      expect(none.body.data.adminBackgroundQueuesDeleteJobs.result).toEqual({ completed: true, deletedJobs: 0, queueSize: 2 });
      const rest = await deleteJobs(admin.token, { queueName: queue, user: tag });
      expect(rest.body.data.adminBackgroundQueuesDeleteJobs.result).toEqual({ completed: true, deletedJobs: 2, queueSize: 0 });
    }

    // Several keys together; a job a runner holds stays (and is not counted as waiting); another queue is untouched.
    const ids = await insertJobs(
      queue,
      worker,
      [
        { user: tag, project: 'a/b', caller_id: 'c' },
        { user: tag, project: 'a/b', caller_id: 'c' },
        { user: tag, project: 'a/b', caller_id: 'other' },
        { user: tag, project: 'a/b', caller_id: 'c' },
      ],
      { dueIn: 0 },
    );
    await insertJobs('project_destroy', 'ProjectDestroyWorker', [{ user: tag, project: 'a/b', caller_id: 'c' }]);
    const held = (await claimJobs(db(), [queue], 'held', 1, 600)).map((j) => j.id);
    expect(held).toEqual([ids[0]]);
    const res = await deleteJobs(admin.token, { queueName: queue, user: tag, project: 'a/b', callerId: 'c' });
    expect(res.body.data.adminBackgroundQueuesDeleteJobs.result).toEqual({ completed: true, deletedJobs: 2, queueSize: 1 });
    expect(
      (
        await jobsWhere(
          sql`${backgroundJobs.id} IN (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        )
      ).map((j) => j.id),
    ).toEqual([ids[0], ids[2]]);
    const other = await deleteJobs(admin.token, { queueName: 'project_destroy', user: tag });
    expect(other.body.data.adminBackgroundQueuesDeleteJobs.result.deletedJobs).toBe(1);
    await completeJob(db(), ids[0]!, 'held');
    await deleteJobs(admin.token, { queueName: queue, user: tag });
  });

  it('deletes in bounded batches and says completed: false when the time limit cut the scan short', async () => {
    const { deleteJobs: deleteJobsVerb } = await import('../../../functions/background-jobs/service.ts');
    const admin = await createAdmin();
    const tag = unique('batch');
    await insertJobs(
      'cronjob:prune_rate_limits',
      'PruneRateLimitsWorker',
      Array.from({ length: 7 }, () => ({ user: tag })),
    );
    const ctx = { ...testDb(), actor: { user: admin.user, scopes: ['api'], via: 'personal_access_token' as const } } as any;
    const input = { queueName: 'cronjob:prune_rate_limits', meta: { user: tag } };
    expect(await deleteJobsVerb({ ctx, input }, { batch: 2, timeoutMs: 0 })).toEqual({ completed: false, deletedJobs: 0, queueSize: 7 });
    expect(await deleteJobsVerb({ ctx, input }, { batch: 2 })).toEqual({ completed: true, deletedJobs: 7, queueSize: 0 });
  });
});

describe('GET /sidekiq/queue_metrics', () => {
  it('administrators only (401 anonymous, 403 others); every queue with its backlog and latency', async () => {
    expect(await api.get('/sidekiq/queue_metrics')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    const { token } = await createUser();
    expect(await api.get('/sidekiq/queue_metrics', { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const admin = await createAdmin();
    const tag = unique('metrics');
    const [, , dead, held] = await insertJobs(
      'cronjob:prune_rate_limits',
      'PruneRateLimitsWorker',
      [{ user: tag }, { user: tag }, { user: tag }, { user: tag }],
      { dueIn: -100 },
    );
    await insertJobs('cronjob:prune_rate_limits', 'PruneRateLimitsWorker', [{ user: tag }], { dueIn: 600 });
    await db().update(backgroundJobs).set({ dead: true }).where(eq(backgroundJobs.id, dead!));
    await db()
      .update(backgroundJobs)
      .set({ claimedBy: 'held', claimedUntil: sql`now() + interval '1 minute'` })
      .where(eq(backgroundJobs.id, held!));
    const res = await api.get('/sidekiq/queue_metrics', { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.queues).sort()).toEqual([
      'cronjob:object_pool_cleanup',
      'cronjob:prune_old_events',
      'cronjob:prune_rate_limits',
      'cronjob:purge_deleted_namespaces',
      'cronjob:remove_expired_members',
      'git_garbage_collect',
      'group_destroy',
      'mailers',
      'pipeline_processing:pipeline_success',
      'post_receive',
      'project_destroy',
      'update_merge_requests',
    ]);
    // Two due and one scheduled wait; the dead and the running ones are not the queue's.
    expect(res.body.queues['cronjob:prune_rate_limits'].backlog).toBe(3);
    expect(res.body.queues['cronjob:prune_rate_limits'].latency).toBeGreaterThanOrEqual(100);
    expect(res.body.queues['cronjob:prune_rate_limits'].latency).toBeLessThan(130);
    expect(res.body.queues['cronjob:remove_expired_members']).toEqual({ backlog: 0, latency: 0 });
    await db()
      .delete(backgroundJobs)
      .where(sql`${backgroundJobs.meta}->>'user' = ${tag}`);
  });
});

describe('GET /sidekiq/job_stats, process_metrics and compound_metrics', () => {
  it('counts processed and failed jobs as the runner completes and fails them; live runs are the processes', async () => {
    const admin = await createAdmin();
    expect((await api.get('/sidekiq/job_stats', { token: (await createUser()).token })).status).toBe(403);
    const stats = async () => (await api.get('/sidekiq/job_stats', { token: admin.token })).body.jobs;
    const before = await stats();
    expect(Object.keys(before).sort()).toEqual(['dead', 'enqueued', 'failed', 'processed']);
    const tag = unique('stats');
    const [first, second] = await insertJobs('cronjob:prune_rate_limits', 'PruneRateLimitsWorker', [{ user: tag }, { user: tag }], { dueIn: -5 });
    const runner = unique('run');
    const claimed = await claimJobs(db(), ['cronjob:prune_rate_limits'], runner, 2, 60);
    expect(claimed.map((j) => j.id).sort()).toEqual([first, second].sort());

    const processes = (await api.get('/sidekiq/process_metrics', { token: admin.token })).body.processes;
    expect(processes).toContainEqual({
      hostname: runner,
      pid: null,
      tag: null,
      started_at: expect.any(String),
      queues: ['cronjob:prune_rate_limits'],
      labels: [],
      concurrency: 2,
      busy: 2,
    });
    await completeJob(db(), first!, runner);
    await failJob(db(), second!, runner, 'boom', null);
    const after = await stats();
    expect(after.processed).toBeGreaterThanOrEqual(before.processed + 1);
    expect(after.failed).toBeGreaterThanOrEqual(before.failed + 1);
    expect(after.dead).toBeGreaterThanOrEqual(before.dead + 1);
    const compound = await api.get('/sidekiq/compound_metrics', { token: admin.token });
    expect(Object.keys(compound.body).sort()).toEqual(['jobs', 'processes', 'queues']);
    expect(compound.body.processes.map((p: { hostname: string }) => p.hostname)).not.toContain(runner);
    await db()
      .delete(backgroundJobs)
      .where(sql`${backgroundJobs.meta}->>'user' = ${tag}`);
  });
});

describe('deletion racing the runner', () => {
  it('no job is both run and reported deleted: run + deleted + left = total', async () => {
    const admin = await createAdmin();
    const tag = unique('race');
    const total = 120;
    const ids = await insertJobs(
      'group_destroy',
      'GroupDestroyWorker',
      Array.from({ length: total }, () => ({ root_namespace: tag })),
      { dueIn: 0, args: { group_id: 0 } },
    );
    const mine = new Set(ids);
    // Bounded runs (as a cron invocation is): whichever side is faster, both have jobs to take.
    const runners = [1, 2, 3].map(() => runJobs({ ctx: testDb() }, { queues: ['group_destroy'], claimBatch: 2, maxJobs: 20 }));
    const deletions = [0, 5, 10, 20].map(async (delay) => {
      await new Promise((r) => setTimeout(r, delay));
      const res = await deleteJobs(admin.token, { queueName: 'group_destroy', rootNamespace: tag });
      expect(res.body.data.adminBackgroundQueuesDeleteJobs.errors).toEqual([]);
      return res.body.data.adminBackgroundQueuesDeleteJobs.result.deletedJobs as number;
    });
    const ran = (await Promise.all(runners)).flat().filter((o) => mine.has(o.id));
    const deleted = (await Promise.all(deletions)).reduce((a, b) => a + b, 0);
    expect(ran.every((o) => o.outcome === 'done')).toBe(true);
    const ranIds = new Set(ran.map((o) => o.id));
    expect(ranIds.size).toBe(ran.length);
    const left = await db()
      .select({ id: backgroundJobs.id })
      .from(backgroundJobs)
      .where(and(inArray(backgroundJobs.id, ids)));
    expect(left.filter((l) => ranIds.has(l.id))).toEqual([]);
    expect(ran.length + deleted + left.length).toBe(total);
    expect(ran.length).toBeGreaterThan(0);
    expect(deleted).toBeGreaterThan(0);
    await deleteJobs(admin.token, { queueName: 'group_destroy', rootNamespace: tag });
  });
});
