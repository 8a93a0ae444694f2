// plan(): which jobs a pipeline source creates (rules, only/except, workflow), in stage order, with their `when`
// and the needs checked against the jobs created.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCiConfig, type CiConfig } from '../../../functions/ci/config/index.ts';
import { plan, type PlanContext } from '../../../functions/ci/plan.ts';

const noTemplates = async () => null;
async function parse(text: string): Promise<CiConfig> {
  const r = await parseCiConfig(text, { templates: noTemplates });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.config;
}
const BRANCH: PlanContext = { ref: 'main', tag: false, source: 'push', defaultBranch: 'main' };
const FEATURE: PlanContext = { ...BRANCH, ref: 'feature/x' };
const TAG: PlanContext = { ref: 'v1.0', tag: true, source: 'push', defaultBranch: 'main' };
const MR: PlanContext = {
  ref: 'feature/x',
  tag: false,
  source: 'merge_request_event',
  defaultBranch: 'main',
  mergeRequest: { IID: '3', TARGET_BRANCH_NAME: 'main' },
};
const SCHEDULE: PlanContext = { ...BRANCH, source: 'schedule' };
const WEB: PlanContext = { ...BRANCH, source: 'web' };

const jobsOf = async (text: string, c: PlanContext) => {
  const p = plan(await parse(text), c);
  return p.created ? p.jobs.map((j) => `${j.name}:${j.when}`) : p.errors;
};

describe('only/except', () => {
  const file = [
    'all:',
    '  script: x',
    'main_only:',
    '  script: x',
    '  only: [main]',
    'release:',
    '  script: x',
    '  only: [tags]',
    'features:',
    '  script: x',
    '  only: [/^feature\\//]',
    'mrs:',
    '  script: x',
    '  only: [merge_requests]',
    'nightly:',
    '  script: x',
    '  only: [schedules]',
    'not_main:',
    '  script: x',
    '  except: [main]',
    'manual_web:',
    '  script: x',
    '  when: manual',
    '  only:',
    '    refs: [web]',
    '    variables: [$CI_COMMIT_BRANCH == "main"]',
  ].join('\n');
  it.each([
    ['a push to main', BRANCH, ['all:on_success', 'main_only:on_success']],
    ['a push to a feature branch', FEATURE, ['all:on_success', 'features:on_success', 'not_main:on_success']],
    ['a tag', TAG, ['all:on_success', 'release:on_success', 'not_main:on_success']],
    // The merge request pipeline's ref is the source branch: a ref pattern still matches it; `branches` does not.
    ['a merge request', MR, ['features:on_success', 'mrs:on_success']],
    ['a schedule on main', SCHEDULE, ['all:on_success', 'main_only:on_success', 'nightly:on_success']],
    ['a web pipeline on main', WEB, ['all:on_success', 'main_only:on_success', 'manual_web:manual']],
  ])('%s', async (_n, c, expected) => {
    expect(await jobsOf(file, c)).toEqual(expected);
  });
});

describe('rules', () => {
  const file = [
    'build:',
    '  stage: build',
    '  script: x',
    '  rules:',
    '    - if: $CI_COMMIT_TAG',
    '      when: never',
    '    - when: always',
    'deploy:',
    '  stage: deploy',
    '  script: x',
    '  rules:',
    '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && ($DEPLOY != "off" || $FORCE)',
    '      when: manual',
    '    - if: $CI_COMMIT_REF_NAME =~ /^feature\\//i',
    '      when: delayed',
    '      start_in: 1 hour',
    'review:',
    '  script: x',
    '  rules:',
    '    - if: $CI_PIPELINE_SOURCE == "merge_request_event" && $CI_MERGE_REQUEST_TARGET_BRANCH_NAME == "main"',
    '    - changes: [src/**/*]',
    '      exists: [Dockerfile]',
  ].join('\n');
  it.each([
    ['main', BRANCH, ['build:always', 'deploy:manual']],
    ['main with DEPLOY off', { ...BRANCH, variables: { DEPLOY: 'off' } }, ['build:always']],
    ['main with DEPLOY off but FORCE', { ...BRANCH, variables: { DEPLOY: 'off', FORCE: '1' } }, ['build:always', 'deploy:manual']],
    ['a feature branch', FEATURE, ['build:always', 'deploy:delayed']],
    ['a tag', TAG, []],
    ['a merge request', MR, ['build:always', 'review:on_success', 'deploy:delayed']],
    ['main with a Dockerfile', { ...BRANCH, files: ['Dockerfile', 'src/a.rb'] }, ['build:always', 'review:on_success', 'deploy:manual']],
  ])('%s', async (_n, c, expected) => {
    const p = plan(await parse(file), c);
    if (!expected.length) return expect(p).toEqual({ created: false, errors: ['No stages / jobs for this pipeline.'] });
    expect(p.created && p.jobs.map((j) => `${j.name}:${j.when}`)).toEqual(expected);
  });

  it('keeps the stage list to non-empty stages and carries start_in', async () => {
    const p = plan(await parse(file), FEATURE);
    expect(p.created && p.stages.map((s) => s.name)).toEqual(['build', 'deploy']);
    expect(p.created && p.jobs.find((j) => j.name === 'deploy')!.startIn).toBe('1 hour');
  });

  it('workflow rules can stop the pipeline', async () => {
    const c = await parse('workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\n      when: never\n    - when: always\na:\n  script: x\n');
    expect(plan(c, TAG)).toEqual({ created: false, errors: ['Pipeline filtered out by workflow rules.'] });
    expect(plan(c, BRANCH).created).toBe(true);
  });

  it('a need on a job the rules left out fails the pipeline', async () => {
    const c = await parse('build:\n  stage: build\n  script: x\n  only: [tags]\ntest:\n  script: x\n  needs: [build]\n');
    expect(plan(c, BRANCH)).toEqual({ created: false, errors: ["test: needs 'build'"] });
    expect(plan(c, TAG).created).toBe(true);
  });
});

describe('parallel', () => {
  it('makes N jobs and expands needs of the name', async () => {
    const c = await parse('build:\n  stage: build\n  script: x\n  parallel: 3\ntest:\n  script: y\n  needs: [build]\n');
    const p = plan(c, BRANCH);
    expect(p.created && p.jobs.map((j) => j.name)).toEqual(['build 1/3', 'build 2/3', 'build 3/3', 'test']);
    expect(p.created && p.jobs.at(-1)!.needs!.map((n) => n.name)).toEqual(['build 1/3', 'build 2/3', 'build 3/3']);
  });
});

describe('the needs DAG', () => {
  // Any valid configuration's needs point to earlier stages: the graph has no cycle (13.6 has no same-stage needs).
  it('is acyclic for any generated configuration that parses', async () => {
    const stageNames = ['build', 'test', 'deploy'];
    const arbJob = fc.record({ stage: fc.constantFrom(...stageNames), needs: fc.array(fc.nat(5), { maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(arbJob, { minLength: 1, maxLength: 6 }), async (jobs) => {
        const text = jobs
          .map(
            (j, i) =>
              `j${i}:\n  stage: ${j.stage}\n  script: x\n  needs: [${j.needs
                .filter((n) => n < jobs.length)
                .map((n) => `j${n}`)
                .join(', ')}]\n`,
          )
          .join('');
        const r = await parseCiConfig(text, { templates: noTemplates });
        if (!r.ok) {
          expect(r.errors.every((e) => /job: need j\d+ is not defined in prior stages$/.test(e))).toBe(true);
          return;
        }
        const p = plan(r.config, BRANCH);
        if (!p.created) return;
        const order = new Map(p.jobs.map((j, i) => [j.name, i]));
        for (const j of p.jobs) for (const n of j.needs ?? []) expect(order.get(n.name)!).toBeLessThan(order.get(j.name)!);
      }),
      { numRuns: 200 },
    );
  });
});
