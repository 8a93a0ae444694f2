// Pipeline processing as GitLab 13.6's AtomicProcessingService does it, checked against the scenarios
// of GitLab's spec/services/ci/pipeline_processing/test_cases/*.yml: each case creates the jobs of a
// config, processes the pipeline, then applies job events (a runner taking the job, the job failing...)
// and processes again, comparing jobs, stored stages and the stored pipeline after every step.
import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  compositeStatus,
  isJobStatus,
  nextPipelineStatus,
  nextStageStatus,
  processPipeline,
  processingStageStatus,
  type JobStatus,
  type JobWhen,
  type ProcessableJob,
} from '../../../functions/pipelines/status.ts';

type JobEvent = 'enqueue' | 'play' | 'run' | 'drop' | 'success' | 'cancel';

// Where a job event (a build state-machine event in GitLab) takes the job.
const EVENT_STATUS: Record<JobEvent, JobStatus> = {
  enqueue: 'pending',
  play: 'pending',
  run: 'running',
  drop: 'failed',
  success: 'success',
  cancel: 'canceled',
};

interface JobConfig {
  readonly stage: string;
  readonly when?: JobWhen;
  readonly allowFailure?: boolean;
  readonly needs?: readonly string[];
}

interface Snapshot {
  readonly pipeline: JobStatus;
  readonly stages: Record<string, JobStatus>;
  readonly jobs: Record<string, JobStatus>;
}

interface Transition {
  readonly event: JobEvent;
  readonly jobs: readonly string[];
  readonly expect: Snapshot;
}

interface Case {
  readonly name: string;
  readonly stages?: readonly string[];
  readonly config: Record<string, JobConfig>;
  readonly init: Snapshot;
  readonly transitions: readonly Transition[];
}

const DEFAULT_STAGES = ['.pre', 'build', 'test', 'deploy', '.post'];

// "build:pending test:created" -> { build: 'pending', test: 'created' }
function pairs(text: string): Record<string, JobStatus> {
  const result: Record<string, JobStatus> = {};
  for (const pair of text.trim().split(/\s+/)) {
    const [name, status] = pair.split(':');
    if (!name || !status || !isJobStatus(status)) throw new Error(`bad pair ${pair}`);
    result[name] = status;
  }
  return result;
}

const snap = (pipeline: JobStatus, stages: string, jobs: string): Snapshot => ({ pipeline, stages: pairs(stages), jobs: pairs(jobs) });
const on = (event: JobEvent, jobs: string, expected: Snapshot): Transition => ({ event, jobs: jobs.split(' '), expect: expected });

// The pipeline as stored rows: jobs, one row per stage that has jobs, the pipeline row.
class PipelineSim {
  private jobs: ProcessableJob[];
  private readonly stageNames: string[];
  private stageRows = new Map<number, JobStatus>();
  private pipelineRow: JobStatus = 'created';

  constructor(testCase: Case) {
    const order = testCase.stages ? ['.pre', ...testCase.stages, '.post'] : DEFAULT_STAGES;
    this.stageNames = order;
    this.jobs = Object.entries(testCase.config).map(([name, config], index) => ({
      id: index + 1,
      name,
      stageIdx: order.indexOf(config.stage),
      status: 'created',
      when: config.when ?? 'on_success',
      // A manual job is allowed to fail unless the config says otherwise (Entry::Job default).
      allowFailure: config.allowFailure ?? config.when === 'manual',
      needs: config.needs ?? null,
    }));
    for (const job of this.jobs) this.stageRows.set(job.stageIdx, 'created');
  }

  process(): void {
    this.jobs = applyChanges(this.jobs, processPipeline(this.jobs));
    for (const [idx, current] of [...this.stageRows].sort(([a], [b]) => a - b)) {
      const computed = processingStageStatus(this.jobs.filter((job) => job.stageIdx === idx));
      this.stageRows.set(idx, nextStageStatus(current, computed));
    }
    this.pipelineRow = nextPipelineStatus(this.pipelineRow, compositeStatus(this.jobs) ?? 'success');
  }

  fire(event: JobEvent, names: readonly string[]): void {
    for (const name of names)
      expect(
        this.jobs.some((job) => job.name === name),
        `job ${name}`,
      ).toBe(true);
    this.jobs = this.jobs.map((job) => (names.includes(job.name) ? { ...job, status: EVENT_STATUS[event] } : job));
  }

  snapshot(): Snapshot {
    const stages: Record<string, JobStatus> = {};
    for (const [idx, status] of this.stageRows) stages[this.stageNames[idx] ?? `#${idx}`] = status;
    const jobs: Record<string, JobStatus> = {};
    for (const job of this.jobs) jobs[job.name] = job.status;
    return { pipeline: this.pipelineRow, stages, jobs };
  }
}

function run(testCase: Case): void {
  const sim = new PipelineSim(testCase);
  sim.process();
  expect(sim.snapshot(), 'init').toEqual(testCase.init);
  testCase.transitions.forEach((transition, index) => {
    sim.fire(transition.event, transition.jobs);
    sim.process();
    expect(sim.snapshot(), `transition ${index}: ${transition.event} ${transition.jobs.join(',')}`).toEqual(transition.expect);
  });
}

// Scenarios whose expectations hold for 13.6 as GitLab wrote them.
const CASES: Case[] = [
  {
    name: 'dag_build_fails',
    config: { build: { stage: 'build' }, test: { stage: 'test', needs: ['build'] }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    name: 'dag_build_fails_deploy_needs_test',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    name: 'dag_build_fails_deploy_needs_test_when_always',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy', when: 'always', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('running', 'build:failed test:skipped deploy:pending', 'build:failed test:skipped deploy:pending'))],
  },
  {
    name: 'dag_build_fails_other_build_succeeds_deploy_always',
    config: {
      build_1: { stage: 'build' },
      build_2: { stage: 'build' },
      test: { stage: 'test' },
      deploy: { stage: 'deploy', when: 'always', needs: ['build_1', 'test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build_1:pending build_2:pending test:created deploy:created'),
    transitions: [
      on('success', 'build_1', snap('running', 'build:running test:created deploy:created', 'build_1:success build_2:pending test:created deploy:created')),
      on('drop', 'build_2', snap('running', 'build:failed test:skipped deploy:pending', 'build_1:success build_2:failed test:skipped deploy:pending')),
    ],
  },
  {
    name: 'dag_build_fails_other_build_succeeds_deploy_needs_one_build_and_test',
    config: {
      build_1: { stage: 'build' },
      build_2: { stage: 'build' },
      test: { stage: 'test' },
      deploy: { stage: 'deploy', needs: ['build_1', 'test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build_1:pending build_2:pending test:created deploy:created'),
    transitions: [
      on('success', 'build_1', snap('running', 'build:running test:created deploy:created', 'build_1:success build_2:pending test:created deploy:created')),
      // The skipped need counts as passed next to a successful one: deploy runs.
      on('drop', 'build_2', snap('running', 'build:failed test:skipped deploy:pending', 'build_1:success build_2:failed test:skipped deploy:pending')),
    ],
  },
  {
    name: 'dag_build_fails_test_always',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'always', needs: ['build'] } },
    init: snap('pending', 'build:pending test:created', 'build:pending test:created'),
    transitions: [on('drop', 'build', snap('running', 'build:failed test:pending', 'build:failed test:pending'))],
  },
  {
    name: 'dag_build_fails_test_fails_with_allow_failure',
    config: { build: { stage: 'build' }, test: { stage: 'test', allowFailure: true }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    name: 'dag_build_fails_test_on_failure',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure', needs: ['build'] } },
    init: snap('pending', 'build:pending test:created', 'build:pending test:created'),
    transitions: [on('drop', 'build', snap('running', 'build:failed test:pending', 'build:failed test:pending'))],
  },
  {
    name: 'dag_build_fails_test_on_failure_deploy_needs_test',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure' }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [
      on('drop', 'build', snap('running', 'build:failed test:pending deploy:created', 'build:failed test:pending deploy:created')),
      on('success', 'test', snap('running', 'build:failed test:success deploy:pending', 'build:failed test:success deploy:pending')),
      on('success', 'deploy', snap('failed', 'build:failed test:success deploy:success', 'build:failed test:success deploy:success')),
    ],
  },
  {
    name: 'dag_build_fails_with_allow_failure_test_on_failure',
    config: {
      build: { stage: 'build', allowFailure: true },
      test: { stage: 'test', when: 'on_failure', needs: ['build'] },
      deploy: { stage: 'deploy', needs: ['test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('success', 'build:success test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    // `build1` is ruled out: test does not wait for anything, not even build2 of the earlier stage.
    name: 'dag_build2_build1_rules_out_test_needs_build1_with_optional',
    config: { build2: { stage: 'build' }, test: { stage: 'test', needs: ['build1'] } },
    init: snap('pending', 'build:pending test:pending', 'build2:pending test:pending'),
    transitions: [
      on('success', 'test', snap('running', 'build:pending test:success', 'build2:pending test:success')),
      on('success', 'build2', snap('success', 'build:success test:success', 'build2:success test:success')),
    ],
  },
  {
    // `build` is ruled out by rules:, so it is not in the pipeline; the optional need is ignored.
    name: 'dag_build_rules_out_test_needs_build_with_optional',
    config: { test: { stage: 'test', needs: ['build'] } },
    init: snap('pending', 'test:pending', 'test:pending'),
    transitions: [on('success', 'test', snap('success', 'test:success', 'test:success'))],
  },
  {
    name: 'dag_build_succeds_test_manual_allow_failure_true_deploy_needs_both',
    config: {
      build: { stage: 'build' },
      test: { stage: 'test', when: 'manual', allowFailure: true },
      deploy: { stage: 'deploy', needs: ['build', 'test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('success', 'build', snap('running', 'build:success test:skipped deploy:created', 'build:success test:manual deploy:created'))],
  },
  {
    name: 'dag_build_succeeds_test_on_failure',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure', needs: ['build'] } },
    init: snap('pending', 'build:pending test:created', 'build:pending test:created'),
    transitions: [on('success', 'build', snap('success', 'build:success test:skipped', 'build:success test:skipped'))],
  },
  {
    name: 'dag_build_test_manual_review_deploy',
    stages: ['build', 'test', 'review', 'deploy'],
    config: {
      build: { stage: 'build' },
      test: { stage: 'test' },
      release_test: { stage: 'test', when: 'manual', allowFailure: true },
      review: { stage: 'review', needs: ['test', 'release_test'] },
      staging: { stage: 'deploy', needs: ['test', 'release_test'] },
      production: { stage: 'deploy', needs: ['review'] },
    },
    init: snap(
      'pending',
      'build:pending test:created review:created deploy:created',
      'build:pending test:created release_test:created review:created staging:created production:created',
    ),
    transitions: [
      on(
        'success',
        'build',
        snap(
          'running',
          'build:success test:pending review:created deploy:created',
          'build:success test:pending release_test:manual review:created staging:created production:created',
        ),
      ),
      on(
        'success',
        'test',
        snap(
          'running',
          'build:success test:success review:created deploy:created',
          'build:success test:success release_test:manual review:created staging:created production:created',
        ),
      ),
    ],
  },
  {
    name: 'dag_builds_succeed_test_on_failure_deploy_needs_one_build_and_test_when_always',
    config: {
      build_1: { stage: 'build' },
      build_2: { stage: 'build' },
      test: { stage: 'test', when: 'on_failure' },
      deploy: { stage: 'deploy', when: 'always', needs: ['build_1', 'test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build_1:pending build_2:pending test:created deploy:created'),
    transitions: [
      on(
        'success',
        'build_1 build_2',
        snap('running', 'build:success test:skipped deploy:pending', 'build_1:success build_2:success test:skipped deploy:pending'),
      ),
      on('success', 'deploy', snap('success', 'build:success test:skipped deploy:success', 'build_1:success build_2:success test:skipped deploy:success')),
    ],
  },
  {
    name: 'dag_deploy_needs_empty',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy', needs: [] } },
    init: snap('pending', 'build:pending test:created deploy:pending', 'build:pending test:created deploy:pending'),
    transitions: [],
  },
  {
    name: 'dag_test_allow_failure_true',
    config: { test: { stage: 'test', allowFailure: true }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('pending', 'test:pending deploy:created', 'test:pending deploy:created'),
    transitions: [
      on('drop', 'test', snap('pending', 'test:success deploy:pending', 'test:failed deploy:pending')),
      on('success', 'deploy', snap('success', 'test:success deploy:success', 'test:failed deploy:success')),
    ],
  },
  {
    // A DAG job waits for a manual need even when that need may fail.
    name: 'dag_test_manual_allow_failure_true',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('created', 'test:skipped deploy:created', 'test:manual deploy:created'),
    transitions: [
      // A skipped stage row cannot go back to pending: enqueue takes it to running.
      on('enqueue', 'test', snap('pending', 'test:running deploy:created', 'test:pending deploy:created')),
      on('run', 'test', snap('running', 'test:running deploy:created', 'test:running deploy:created')),
      on('drop', 'test', snap('running', 'test:success deploy:pending', 'test:failed deploy:pending')),
    ],
  },
  {
    name: 'dag_test_manual_allow_failure_true_deploy_on_failure',
    config: {
      test: { stage: 'test', when: 'manual', allowFailure: true },
      deploy: { stage: 'deploy', when: 'on_failure', needs: ['test'] },
    },
    init: snap('created', 'test:skipped deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('enqueue', 'test', snap('pending', 'test:running deploy:created', 'test:pending deploy:created')),
      on('drop', 'test', snap('success', 'test:success deploy:skipped', 'test:failed deploy:skipped')),
    ],
  },
  {
    name: 'dag_test_on_failure_with_success',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure' }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('success', 'build', snap('success', 'build:success test:skipped deploy:skipped', 'build:success test:skipped deploy:skipped'))],
  },
  {
    name: 'dag_test_on_failure_no_needs',
    config: { test1: { stage: 'test', needs: [] }, test2: { stage: 'test', when: 'on_failure', needs: [] } },
    init: snap('pending', 'test:pending', 'test1:pending test2:skipped'),
    transitions: [on('success', 'test1', snap('success', 'test:success', 'test1:success test2:skipped'))],
  },
  {
    name: 'dag_test_manual_allow_failure_false_other_test_succeeds_deploy_needs_both',
    config: {
      test1: { stage: 'test' },
      test2: { stage: 'test', when: 'manual', allowFailure: false },
      deploy: { stage: 'deploy', needs: ['test1', 'test2'] },
    },
    init: snap('running', 'test:running deploy:created', 'test1:pending test2:manual deploy:created'),
    transitions: [on('success', 'test1', snap('manual', 'test:manual deploy:created', 'test1:success test2:manual deploy:created'))],
  },
  {
    // Needs inside one stage: the stage's jobs are processed in dependency order.
    name: 'dag_same_stages',
    config: { build: { stage: 'test' }, test: { stage: 'test', needs: ['build'] }, deploy: { stage: 'test', needs: ['test'] } },
    init: snap('pending', 'test:pending', 'build:pending test:created deploy:created'),
    transitions: [
      on('success', 'build', snap('running', 'test:running', 'build:success test:pending deploy:created')),
      on('success', 'test', snap('running', 'test:running', 'build:success test:success deploy:pending')),
    ],
  },
  {
    name: 'stage_build_cancels_test1_and_test2_have_when',
    config: {
      build: { stage: 'build' },
      test1: { stage: 'test', when: 'on_success' },
      test2: { stage: 'test', when: 'on_failure' },
      deploy: { stage: 'deploy' },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test1:created test2:created deploy:created'),
    transitions: [
      on('cancel', 'build', snap('canceled', 'build:canceled test:skipped deploy:skipped', 'build:canceled test1:skipped test2:skipped deploy:skipped')),
    ],
  },
  {
    name: 'stage_build_cancels_with_allow_failure_test1_and_test2_have_when',
    config: {
      build: { stage: 'build', allowFailure: true },
      test1: { stage: 'test', when: 'on_success' },
      test2: { stage: 'test', when: 'on_failure' },
      deploy: { stage: 'deploy' },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test1:created test2:created deploy:created'),
    transitions: [
      on('cancel', 'build', snap('pending', 'build:success test:pending deploy:created', 'build:canceled test1:pending test2:skipped deploy:created')),
    ],
  },
  {
    name: 'stage_build_fails',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    name: 'stage_build_fails_test_allow_failure',
    config: { build: { stage: 'build' }, test: { stage: 'test', allowFailure: true }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:skipped'))],
  },
  {
    name: 'stage_build_fails_with_allow_failure_test_on_failure',
    config: { build: { stage: 'build', allowFailure: true }, test: { stage: 'test', when: 'on_failure' }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [
      on('drop', 'build', snap('pending', 'build:success test:skipped deploy:pending', 'build:failed test:skipped deploy:pending')),
      on('success', 'deploy', snap('success', 'build:success test:skipped deploy:success', 'build:failed test:skipped deploy:success')),
    ],
  },
  {
    name: 'stage_build_succeeds_test_manual_allow_failure_true',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('success', 'build', snap('running', 'build:success test:skipped deploy:pending', 'build:success test:manual deploy:pending'))],
  },
  {
    name: 'stage_build_test_manual_review_deploy',
    stages: ['build', 'test', 'review', 'deploy'],
    config: {
      build: { stage: 'build' },
      test: { stage: 'test' },
      release_test: { stage: 'test', when: 'manual', allowFailure: true },
      review: { stage: 'review' },
      staging: { stage: 'deploy' },
      production: { stage: 'deploy' },
    },
    init: snap(
      'pending',
      'build:pending test:created review:created deploy:created',
      'build:pending test:created release_test:created review:created staging:created production:created',
    ),
    transitions: [
      on(
        'success',
        'build',
        snap(
          'running',
          'build:success test:pending review:created deploy:created',
          'build:success test:pending release_test:manual review:created staging:created production:created',
        ),
      ),
      on(
        'success',
        'test',
        snap(
          'running',
          'build:success test:success review:pending deploy:created',
          'build:success test:success release_test:manual review:pending staging:created production:created',
        ),
      ),
    ],
  },
  {
    // A blocking manual job: the pipeline and stage rows stay manual while it is only pending.
    name: 'stage_test_manual_allow_failure_false',
    config: { test: { stage: 'test', when: 'manual', allowFailure: false }, deploy: { stage: 'deploy' } },
    init: snap('manual', 'test:manual deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('enqueue', 'test', snap('manual', 'test:manual deploy:created', 'test:pending deploy:created')),
      on('run', 'test', snap('running', 'test:running deploy:created', 'test:running deploy:created')),
      on('success', 'test', snap('running', 'test:success deploy:pending', 'test:success deploy:pending')),
      on('success', 'deploy', snap('success', 'test:success deploy:success', 'test:success deploy:success')),
    ],
  },
  {
    name: 'stage_test_manual_allow_failure_true',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'test:skipped deploy:pending', 'test:manual deploy:pending'),
    transitions: [
      on('success', 'deploy', snap('success', 'test:skipped deploy:success', 'test:manual deploy:success')),
      on('enqueue', 'test', snap('running', 'test:running deploy:success', 'test:pending deploy:success')),
      on('drop', 'test', snap('success', 'test:success deploy:success', 'test:failed deploy:success')),
    ],
  },
  {
    name: 'stage_test_manual_allow_failure_true_deploy_always',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', when: 'always' } },
    init: snap('pending', 'test:skipped deploy:pending', 'test:manual deploy:pending'),
    transitions: [],
  },
  {
    name: 'stage_test_manual_allow_failure_true_deploy_on_failure',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', when: 'on_failure' } },
    init: snap('skipped', 'test:skipped deploy:skipped', 'test:manual deploy:skipped'),
    transitions: [
      on('enqueue', 'test', snap('pending', 'test:running deploy:skipped', 'test:pending deploy:skipped')),
      on('drop', 'test', snap('success', 'test:success deploy:skipped', 'test:failed deploy:skipped')),
    ],
  },
  {
    name: 'stage_test_on_failure_no_prev_stage',
    config: { test1: { stage: 'test' }, test2: { stage: 'test', when: 'on_failure' } },
    init: snap('pending', 'test:pending', 'test1:pending test2:skipped'),
    transitions: [on('success', 'test1', snap('success', 'test:success', 'test1:success test2:skipped'))],
  },
  {
    name: 'stage_test_on_failure_with_failure',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure' }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [
      on('drop', 'build', snap('running', 'build:failed test:pending deploy:created', 'build:failed test:pending deploy:created')),
      on('success', 'test', snap('failed', 'build:failed test:success deploy:skipped', 'build:failed test:success deploy:skipped')),
    ],
  },
  {
    name: 'stage_test_on_failure_with_success',
    config: { build: { stage: 'build' }, test: { stage: 'test', when: 'on_failure' }, deploy: { stage: 'deploy' } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [
      on('success', 'build', snap('running', 'build:success test:skipped deploy:pending', 'build:success test:skipped deploy:pending')),
      on('success', 'deploy', snap('success', 'build:success test:skipped deploy:success', 'build:success test:skipped deploy:success')),
    ],
  },
];

// Scenarios whose stored GitLab version describes a later release; the expectations here are what 13.6
// does, derived with the same rules the cases above confirm. Each says what changed later.
const ADAPTED_CASES: Case[] = [
  {
    // Later (14.x) a manual need allowed to fail skips the DAG job; 13.6 keeps it created.
    name: 'dag_build_succeds_test_manual_allow_failure_true_deploy_needs_test',
    config: {
      build: { stage: 'build' },
      test: { stage: 'test', when: 'manual', allowFailure: true },
      deploy: { stage: 'deploy', needs: ['test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('success', 'build', snap('running', 'build:success test:skipped deploy:created', 'build:success test:manual deploy:created'))],
  },
  {
    // Later a skipped need skips an on_success DAG job even next to a successful one; in 13.6 the
    // composite of success + skipped is success (as in ..._deploy_needs_one_build_and_test above).
    name: 'dag_builds_succeed_test_on_failure_deploy_needs_one_build_and_test',
    config: {
      build_1: { stage: 'build' },
      build_2: { stage: 'build' },
      test: { stage: 'test', when: 'on_failure' },
      deploy: { stage: 'deploy', needs: ['build_1', 'test'] },
    },
    init: snap('pending', 'build:pending test:created deploy:created', 'build_1:pending build_2:pending test:created deploy:created'),
    transitions: [
      on(
        'success',
        'build_1 build_2',
        snap('running', 'build:success test:skipped deploy:pending', 'build_1:success build_2:success test:skipped deploy:pending'),
      ),
    ],
  },
  {
    // 13.8's skip_dag_manual_and_delayed_jobs skips it; 13.6 still accepts a skipped need for manual jobs.
    name: 'dag_build_fails_deploy_is_manual_and_needs_test',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy', when: 'manual', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('failed', 'build:failed test:skipped deploy:skipped', 'build:failed test:skipped deploy:manual'))],
  },
  {
    // Same flag for delayed jobs.
    name: 'dag_build_fails_deploy_is_delayed_and_needs_test',
    config: { build: { stage: 'build' }, test: { stage: 'test' }, deploy: { stage: 'deploy', when: 'delayed', needs: ['test'] } },
    init: snap('pending', 'build:pending test:created deploy:created', 'build:pending test:created deploy:created'),
    transitions: [on('drop', 'build', snap('scheduled', 'build:failed test:skipped deploy:scheduled', 'build:failed test:skipped deploy:scheduled'))],
  },
  {
    // Later the ignored manual need counts as skipped and `always` runs; 13.6 waits for it.
    name: 'dag_test_manual_allow_failure_true_deploy_always',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', when: 'always', needs: ['test'] } },
    init: snap('created', 'test:skipped deploy:created', 'test:manual deploy:created'),
    transitions: [],
  },
  {
    name: 'dag_test_manual_allow_failure_true_other_test_succeeds_deploy_needs_both',
    config: {
      test1: { stage: 'test' },
      test2: { stage: 'test', when: 'manual', allowFailure: true },
      deploy: { stage: 'deploy', needs: ['test1', 'test2'] },
    },
    init: snap('pending', 'test:pending deploy:created', 'test1:pending test2:manual deploy:created'),
    transitions: [on('success', 'test1', snap('running', 'test:success deploy:created', 'test1:success test2:manual deploy:created'))],
  },
  {
    // Later versions move a manual pipeline/stage row to pending on play; 13.6's state machines do not.
    name: 'dag_test_manual_allow_failure_false',
    config: { test: { stage: 'test', when: 'manual', allowFailure: false }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('manual', 'test:manual deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('play', 'test', snap('manual', 'test:manual deploy:created', 'test:pending deploy:created')),
      on('run', 'test', snap('running', 'test:running deploy:created', 'test:running deploy:created')),
      on('success', 'test', snap('running', 'test:success deploy:pending', 'test:success deploy:pending')),
      on('success', 'deploy', snap('success', 'test:success deploy:success', 'test:success deploy:success')),
    ],
  },
  {
    name: 'dag_test_manual_allow_failure_false_deploy_always',
    config: { test: { stage: 'test', when: 'manual', allowFailure: false }, deploy: { stage: 'deploy', when: 'always', needs: ['test'] } },
    init: snap('manual', 'test:manual deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('play', 'test', snap('manual', 'test:manual deploy:created', 'test:pending deploy:created')),
      on('drop', 'test', snap('running', 'test:failed deploy:pending', 'test:failed deploy:pending')),
    ],
  },
  {
    name: 'dag_test_manual_allow_failure_false_deploy_on_failure',
    config: { test: { stage: 'test', when: 'manual', allowFailure: false }, deploy: { stage: 'deploy', when: 'on_failure', needs: ['test'] } },
    init: snap('manual', 'test:manual deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('play', 'test', snap('manual', 'test:manual deploy:created', 'test:pending deploy:created')),
      on('drop', 'test', snap('running', 'test:failed deploy:pending', 'test:failed deploy:pending')),
    ],
  },
  {
    // Later the manual need is skipped-like and deploy is skipped until play; 13.6 keeps deploy created.
    name: 'dag_test_manual_allow_failure_true_succeeds',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('created', 'test:skipped deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('play', 'test', snap('pending', 'test:running deploy:created', 'test:pending deploy:created')),
      on('run', 'test', snap('running', 'test:running deploy:created', 'test:running deploy:created')),
      on('success', 'test', snap('running', 'test:success deploy:pending', 'test:success deploy:pending')),
      on('success', 'deploy', snap('success', 'test:success deploy:success', 'test:success deploy:success')),
    ],
  },
  {
    name: 'dag_test_manual_allow_failure_true_fails',
    config: { test: { stage: 'test', when: 'manual', allowFailure: true }, deploy: { stage: 'deploy', needs: ['test'] } },
    init: snap('created', 'test:skipped deploy:created', 'test:manual deploy:created'),
    transitions: [
      on('play', 'test', snap('pending', 'test:running deploy:created', 'test:pending deploy:created')),
      on('run', 'test', snap('running', 'test:running deploy:created', 'test:running deploy:created')),
      on('drop', 'test', snap('running', 'test:success deploy:pending', 'test:failed deploy:pending')),
      on('success', 'deploy', snap('success', 'test:success deploy:success', 'test:failed deploy:success')),
    ],
  },
  {
    // 13.6: the DAG job waiting for a manual job stays created, and a later stage-scheduled job waits
    // for it too (its prior stages read as running). Later versions skip post_test and run deploy.
    name: 'dag_test_manual_post_test_needs_deploy_is_stage',
    stages: ['build', 'test', 'post_test', 'deploy'],
    config: {
      build: { stage: 'build' },
      test: { stage: 'test', when: 'manual' },
      post_test: { stage: 'post_test', needs: ['test'] },
      deploy: { stage: 'deploy' },
    },
    init: snap('pending', 'build:pending test:created post_test:created deploy:created', 'build:pending test:created post_test:created deploy:created'),
    transitions: [
      on(
        'success',
        'build',
        snap('running', 'build:success test:skipped post_test:created deploy:created', 'build:success test:manual post_test:created deploy:created'),
      ),
    ],
  },
  {
    name: 'dag_test_manual_same_stage_needs',
    stages: ['first', 'second', 'third', 'fourth'],
    config: {
      first_job: { stage: 'first' },
      second_job: { stage: 'second', when: 'manual' },
      third_job: { stage: 'third', needs: ['second_job'] },
      fourth_job: { stage: 'fourth', needs: ['third_job'] },
    },
    init: snap(
      'pending',
      'first:pending second:created third:created fourth:created',
      'first_job:pending second_job:created third_job:created fourth_job:created',
    ),
    transitions: [
      on(
        'success',
        'first_job',
        snap(
          'running',
          'first:success second:skipped third:created fourth:created',
          'first_job:success second_job:manual third_job:created fourth_job:created',
        ),
      ),
      on(
        'play',
        'second_job',
        snap(
          'running',
          'first:success second:running third:created fourth:created',
          'first_job:success second_job:pending third_job:created fourth_job:created',
        ),
      ),
      on(
        'success',
        'second_job',
        snap(
          'running',
          'first:success second:success third:pending fourth:created',
          'first_job:success second_job:success third_job:pending fourth_job:created',
        ),
      ),
    ],
  },
  {
    name: 'dag_same_stage_with_subsequent_manual_jobs',
    config: {
      job1: { stage: 'test', when: 'manual' },
      job2: { stage: 'test', needs: ['job1'] },
      job3: { stage: 'test', when: 'manual', needs: ['job2'] },
      job4: { stage: 'test', needs: ['job3'] },
    },
    init: snap('created', 'test:created', 'job1:manual job2:created job3:created job4:created'),
    transitions: [
      on('play', 'job1', snap('pending', 'test:pending', 'job1:pending job2:created job3:created job4:created')),
      on('success', 'job1', snap('running', 'test:running', 'job1:success job2:pending job3:created job4:created')),
      on('success', 'job2', snap('running', 'test:running', 'job1:success job2:success job3:manual job4:created')),
    ],
  },
  {
    name: 'dag_build_test_two_manual_review_test_staging_production',
    stages: ['build', 'test', 'review', 'deploy', 'post_deploy'],
    config: {
      build: { stage: 'build' },
      test: { stage: 'test' },
      release_test1: { stage: 'test', when: 'manual' },
      release_test2: { stage: 'test', when: 'manual' },
      review: { stage: 'review', needs: ['test', 'release_test1', 'release_test2'] },
      staging: { stage: 'deploy', needs: ['release_test1'] },
      production: { stage: 'deploy', needs: ['release_test2'] },
      after_deploy: { stage: 'post_deploy', needs: ['production'] },
      handle_failure: { stage: 'post_deploy', when: 'on_failure' },
    },
    init: snap(
      'pending',
      'build:pending test:created review:created deploy:created post_deploy:created',
      'build:pending test:created release_test1:created release_test2:created review:created staging:created production:created after_deploy:created handle_failure:created',
    ),
    transitions: [
      on(
        'success',
        'build',
        snap(
          'running',
          'build:success test:pending review:created deploy:created post_deploy:created',
          'build:success test:pending release_test1:manual release_test2:manual review:created staging:created production:created after_deploy:created handle_failure:created',
        ),
      ),
      on(
        'success',
        'test',
        snap(
          'running',
          'build:success test:success review:created deploy:created post_deploy:created',
          'build:success test:success release_test1:manual release_test2:manual review:created staging:created production:created after_deploy:created handle_failure:created',
        ),
      ),
      on(
        'play',
        'release_test1',
        snap(
          'running',
          'build:success test:running review:created deploy:created post_deploy:created',
          'build:success test:success release_test1:pending release_test2:manual review:created staging:created production:created after_deploy:created handle_failure:created',
        ),
      ),
      on(
        'success',
        'release_test1',
        snap(
          'running',
          'build:success test:success review:created deploy:pending post_deploy:created',
          'build:success test:success release_test1:success release_test2:manual review:created staging:pending production:created after_deploy:created handle_failure:created',
        ),
      ),
      on(
        'success',
        'staging',
        snap(
          'running',
          'build:success test:success review:created deploy:running post_deploy:created',
          'build:success test:success release_test1:success release_test2:manual review:created staging:success production:created after_deploy:created handle_failure:created',
        ),
      ),
    ],
  },
];

describe('pipeline processing (GitLab test_cases)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => run(testCase));
});

describe('pipeline processing (GitLab test_cases, 13.6 behaviour)', () => {
  it.each(ADAPTED_CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => run(testCase));
});

describe('processPipeline', () => {
  const job = (id: number, name: string, stageIdx: number, extra: Partial<ProcessableJob> = {}): ProcessableJob => ({
    id,
    name,
    stageIdx,
    status: 'created',
    when: 'on_success',
    allowFailure: false,
    needs: null,
    ...extra,
  });

  it('returns only jobs whose status changes, in processing order', () => {
    const changes = processPipeline([job(2, 'test', 1), job(1, 'build', 0), job(3, 'lint', 0, { status: 'running' })]);
    expect(changes).toEqual([{ id: 1, status: 'pending' }]);
  });

  it('skips a whole chain in one pass', () => {
    const changes = processPipeline([
      job(1, 'build', 0, { status: 'failed' }),
      job(2, 'test', 1),
      job(3, 'deploy', 2, { needs: ['test'] }),
      job(4, 'notify', 3, { needs: ['deploy'] }),
    ]);
    expect(changes).toEqual([
      { id: 2, status: 'skipped' },
      { id: 3, status: 'skipped' },
      { id: 4, status: 'skipped' },
    ]);
  });

  it('leaves jobs created while what they wait for is not complete', () => {
    expect(processPipeline([job(1, 'build', 0, { status: 'running' }), job(2, 'test', 1), job(3, 'dag', 2, { needs: ['build'] })])).toEqual([]);
  });

  it('schedules delayed jobs and blocks manual ones', () => {
    const changes = processPipeline([job(1, 'later', 0, { when: 'delayed' }), job(2, 'play', 0, { when: 'manual', allowFailure: true })]);
    expect(changes).toEqual([
      { id: 1, status: 'scheduled' },
      { id: 2, status: 'manual' },
    ]);
  });

  it('is idempotent once statuses settle', () => {
    const jobs = [job(1, 'build', 0), job(2, 'test', 1, { needs: [] })];
    const once = applyChanges(jobs, processPipeline(jobs));
    expect(processPipeline(once)).toEqual([]);
  });
});
