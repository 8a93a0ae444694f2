// Composite statuses, the per-job processing decision, stored stage/pipeline transitions and the
// DetailedStatus presentation, as GitLab 13.6 has them (Gitlab::Ci::Status::Composite, Ci::HasStatus,
// ProcessBuildService, Ci::Stage/Ci::Pipeline state machines, lib/gitlab/ci/status/*.rb).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPLETED_STATUSES,
  JOB_STATUSES,
  compositeStatus,
  detailedStatus,
  hasWarnings,
  isCompleted,
  nextJobStatus,
  nextPipelineStatus,
  nextStageStatus,
  pipelineStatus,
  processingStageStatus,
  stageStatus,
  type JobStatus,
  type JobWhen,
  type StatusItem,
} from '../../../functions/pipelines/status.ts';

// "success failed! manual?" -> jobs; a trailing "!" means allowed to fail.
function items(text: string): StatusItem[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const allowFailure = word.endsWith('!');
      const status = (allowFailure ? word.slice(0, -1) : word) as JobStatus;
      if (!JOB_STATUSES.includes(status)) throw new Error(`bad status ${word}`);
      return { status, allowFailure };
    });
}

describe('compositeStatus', () => {
  it.each([
    ['', null],
    ['skipped', 'skipped'],
    ['manual!', 'skipped'],
    ['skipped manual!', 'skipped'],
    ['success', 'success'],
    ['success skipped', 'success'],
    ['failed!', 'success'],
    ['canceled!', 'success'],
    ['success failed! manual!', 'success'],
    ['created', 'created'],
    ['created manual! failed!', 'created'],
    ['preparing', 'preparing'],
    ['canceled', 'canceled'],
    ['canceled success skipped', 'canceled'],
    ['pending', 'pending'],
    ['pending created skipped', 'pending'],
    ['pending success', 'running'],
    ['running', 'running'],
    ['running failed', 'running'],
    ['failed pending', 'running'],
    ['waiting_for_resource', 'waiting_for_resource'],
    ['waiting_for_resource success', 'waiting_for_resource'],
    ['manual', 'manual'],
    ['manual success', 'manual'],
    // A blocking manual job outranks a failure: the pipeline waits for it.
    ['manual failed', 'manual'],
    ['scheduled', 'scheduled'],
    ['scheduled success', 'scheduled'],
    ['manual scheduled', 'manual'],
    ['preparing success', 'preparing'],
    // Finished jobs next to jobs still waiting: under way.
    ['created success', 'running'],
    ['created failed', 'running'],
    ['created canceled', 'running'],
    ['failed', 'failed'],
    ['failed success', 'failed'],
    ['failed canceled skipped', 'failed'],
  ] as const)('[%s] is %s', (text, expected) => {
    expect(compositeStatus(items(text))).toBe(expected);
  });

  it('does not depend on order or repetition', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status: fc.constantFrom(...JOB_STATUSES), allowFailure: fc.boolean() }), { maxLength: 8 }), (list) => {
        const shuffled = [...list].reverse();
        expect(compositeStatus(shuffled)).toBe(compositeStatus(list));
        expect(compositeStatus([...list, ...list])).toBe(compositeStatus(list));
      }),
    );
  });

  it('is complete only when every job is complete or ignored', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status: fc.constantFrom(...JOB_STATUSES), allowFailure: fc.boolean() }), { minLength: 1, maxLength: 8 }), (list) => {
        const result = compositeStatus(list);
        const allSettled = list.every((job) => isCompleted(job.status) || (job.allowFailure && job.status === 'manual'));
        expect(result !== null && isCompleted(result)).toBe(allSettled);
      }),
    );
  });
});

describe('hasWarnings', () => {
  it.each([
    ['success', false],
    ['failed', false],
    ['failed!', true],
    ['canceled!', true],
    ['manual!', false],
    ['success skipped failed!', true],
  ] as const)('[%s] is %s', (text, expected) => {
    expect(hasWarnings(items(text))).toBe(expected);
  });
});

describe('stage and pipeline status', () => {
  it('reads no jobs as skipped for the models and as success for processing', () => {
    expect(stageStatus([])).toBe('skipped');
    expect(pipelineStatus([])).toBe('skipped');
    expect(processingStageStatus([])).toBe('success');
  });

  it('is the composite otherwise', () => {
    expect(pipelineStatus(items('success failed!'))).toBe('success');
    expect(stageStatus(items('manual'))).toBe('manual');
    expect(pipelineStatus(items('created pending'))).toBe('pending');
  });
});

describe('nextJobStatus (ProcessBuildService)', () => {
  const decide = (when: JobWhen, dag: boolean, prior: JobStatus) => nextJobStatus({ when, needs: dag ? ['x'] : null }, prior);

  it.each([
    ['on_success', false, 'success', 'pending'],
    ['on_success', false, 'skipped', 'pending'],
    ['on_success', false, 'failed', 'skipped'],
    ['on_success', false, 'canceled', 'skipped'],
    ['on_success', true, 'success', 'pending'],
    ['on_success', true, 'skipped', 'skipped'],
    ['on_failure', false, 'failed', 'pending'],
    ['on_failure', false, 'success', 'skipped'],
    ['on_failure', false, 'canceled', 'skipped'],
    ['always', false, 'failed', 'pending'],
    ['always', true, 'skipped', 'pending'],
    ['always', false, 'canceled', 'skipped'],
    ['manual', false, 'success', 'manual'],
    ['manual', true, 'skipped', 'manual'],
    ['manual', false, 'failed', 'skipped'],
    ['delayed', false, 'success', 'scheduled'],
    ['delayed', true, 'skipped', 'scheduled'],
    ['delayed', false, 'failed', 'skipped'],
  ] as const)('%s (dag %s) after %s becomes %s', (when, dag, prior, expected) => {
    expect(decide(when, dag, prior)).toBe(expected);
  });

  it('always decides something for a complete prior status', () => {
    for (const prior of COMPLETED_STATUSES) expect(decide('on_success', false, prior)).not.toBe('created');
  });
});

describe('stored stage and pipeline rows', () => {
  it.each([
    ['created', 'pending', 'pending'],
    ['skipped', 'pending', 'running'],
    ['success', 'pending', 'running'],
    ['manual', 'pending', 'manual'],
    ['pending', 'pending', 'pending'],
    ['success', 'created', 'success'],
    ['pending', 'success', 'success'],
    ['created', 'skipped', 'skipped'],
    ['running', 'manual', 'manual'],
  ] as const)('stage %s set to %s is %s', (current, computed, expected) => {
    expect(nextStageStatus(current, computed)).toBe(expected);
  });

  it.each([
    ['created', 'pending', 'pending'],
    ['skipped', 'pending', 'pending'],
    ['scheduled', 'pending', 'pending'],
    ['manual', 'pending', 'manual'],
    ['success', 'pending', 'running'],
    ['running', 'pending', 'running'],
    ['created', 'created', 'created'],
    ['running', 'failed', 'failed'],
  ] as const)('pipeline %s set to %s is %s', (current, computed, expected) => {
    expect(nextPipelineStatus(current, computed)).toBe(expected);
  });
});

describe('detailedStatus', () => {
  it.each([
    ['created', 'created', 'created', 'status_created', 'favicon_status_created', 'created'],
    ['waiting_for_resource', 'waiting', 'waiting for resource', 'status_pending', 'favicon_status_pending', 'waiting-for-resource'],
    ['preparing', 'preparing', 'preparing', 'status_preparing', 'favicon_status_preparing', 'preparing'],
    ['pending', 'pending', 'pending', 'status_pending', 'favicon_status_pending', 'pending'],
    ['running', 'running', 'running', 'status_running', 'favicon_status_running', 'running'],
    ['success', 'passed', 'passed', 'status_success', 'favicon_status_success', 'success'],
    ['failed', 'failed', 'failed', 'status_failed', 'favicon_status_failed', 'failed'],
    ['canceled', 'canceled', 'canceled', 'status_canceled', 'favicon_status_canceled', 'canceled'],
    ['skipped', 'skipped', 'skipped', 'status_skipped', 'favicon_status_skipped', 'skipped'],
    ['manual', 'manual', 'manual action', 'status_manual', 'favicon_status_manual', 'manual'],
    ['scheduled', 'delayed', 'delayed', 'status_scheduled', 'favicon_status_scheduled', 'scheduled'],
  ] as const)('%s', (status, text, label, icon, favicon, group) => {
    expect(detailedStatus(status)).toEqual({ text, label, icon, favicon, group, tooltip: label, hasDetails: true });
  });

  it('shows passed with warnings, keeping the success favicon and tooltip', () => {
    expect(detailedStatus('success', { hasWarnings: true })).toEqual({
      group: 'success-with-warnings',
      icon: 'status_warning',
      favicon: 'favicon_status_success',
      label: 'passed with warnings',
      text: 'passed',
      tooltip: 'passed',
      hasDetails: true,
    });
    // Warnings only change a passed status.
    expect(detailedStatus('failed', { hasWarnings: true }).group).toBe('failed');
  });

  it('words a blocked or delayed pipeline for the pipeline', () => {
    expect(detailedStatus('manual', { subject: 'pipeline' })).toMatchObject({
      text: 'blocked',
      label: 'waiting for manual action',
      group: 'manual',
      icon: 'status_manual',
    });
    expect(detailedStatus('scheduled', { subject: 'pipeline' })).toMatchObject({ text: 'delayed', label: 'waiting for delayed job', group: 'scheduled' });
    expect(detailedStatus('manual', { subject: 'stage' }).label).toBe('manual action');
  });

  it('reports hasDetails as the caller says', () => {
    expect(detailedStatus('running', { hasDetails: false }).hasDetails).toBe(false);
  });
});
