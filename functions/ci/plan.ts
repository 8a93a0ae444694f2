// The pipeline a normalized configuration makes for one pipeline source (GitLab 13.6's Chain::Seed and
// Seed::Build): workflow rules first, then each job's rules (first match wins) or only/except, the jobs kept in
// stage order with their `when`, empty stages dropped, and needs checked against the jobs actually created.
//
// Paths: `changes` holds (GitLab: a pipeline without a push diff, as tags, schedules, web and API pipelines are,
// has no modified paths and `changes` is true); here no pipeline carries a diff, so `changes` is always true.
// `exists` matches the repository's file paths given in `files` (none given: no file exists).
import { RE2JS } from 're2js';
import type { CiConfig, CiJob, CiNeed, CiPolicy, CiRule, When } from './config/index.ts';
import { NEEDS_LIMIT } from './config/entries.ts';
import { expressionIsTrue } from './config/expression.ts';
import { existsSatisfied } from './exists.ts';
import { refSlug } from './refs.ts';

export type PipelineSource = 'push' | 'web' | 'trigger' | 'api' | 'merge_request_event' | 'schedule' | 'pipeline' | 'external' | 'chat';

export interface PlanContext {
  /** Branch or tag name (the MR's source branch for a merge request pipeline). */
  ref: string;
  tag: boolean;
  source: PipelineSource;
  defaultBranch: string;
  /** Variables of the run (project, trigger, schedule variables), over the predefined ones. */
  variables?: Record<string, string>;
  /** CI_MERGE_REQUEST_* values for a merge request pipeline (without the prefix: IID, TARGET_BRANCH_NAME...). */
  mergeRequest?: Record<string, string>;
  projectPath?: string;
  /** The paths of the files (blobs) at the pipeline's commit, for `rules:exists`. */
  files?: readonly string[];
}

export interface PlannedJob {
  name: string;
  stage: string;
  when: When;
  startIn: string | null;
  allowFailure: boolean;
  needs: CiNeed[] | null;
  job: CiJob;
}

export type Plan = { created: true; stages: { name: string; jobs: PlannedJob[] }[]; jobs: PlannedJob[] } | { created: false; errors: string[] };

/** The predefined variables rules can read (Ci::Pipeline#predefined_variables and #persisted_variables). */
export function predefinedVariables(c: PlanContext): Record<string, string> {
  const vars: Record<string, string> = {
    CI_PIPELINE_SOURCE: c.source,
    CI_COMMIT_REF_NAME: c.ref,
    CI_COMMIT_REF_SLUG: refSlug(c.ref),
    CI_DEFAULT_BRANCH: c.defaultBranch,
    CI: 'true',
    GITLAB_CI: 'true',
  };
  if (c.tag) vars.CI_COMMIT_TAG = c.ref;
  else if (c.source !== 'merge_request_event') vars.CI_COMMIT_BRANCH = c.ref;
  if (c.projectPath) vars.CI_PROJECT_PATH = c.projectPath;
  if (c.source === 'merge_request_event') for (const [k, v] of Object.entries(c.mergeRequest ?? {})) vars[`CI_MERGE_REQUEST_${k}`] = v;
  return vars;
}

/** Build::Rules: the first rule whose `if`, `changes` and `exists` all hold; `null` when none does. */
function matchingRule(rules: readonly CiRule[], vars: Record<string, string>, c: PlanContext): CiRule | null {
  for (const rule of rules) {
    if (rule.if !== undefined && !expressionIsTrue(rule.if, vars)) continue;
    if (rule.exists !== undefined && !existsSatisfied(rule.exists, c.files ?? [])) continue;
    return rule;
  }
  return null;
}

/** Build::Policy::Refs#matches_pattern?: `branches`, `tags`, a source name (singular or plural), /regexp/, a name. */
function refMatches(pattern: string, c: PlanContext): boolean {
  const at = pattern.indexOf('@');
  if (at > 0 && !pattern.startsWith('/')) {
    // `ref@namespace/project`: only for that project.
    if (pattern.slice(at + 1) !== c.projectPath) return false;
    pattern = pattern.slice(0, at);
  }
  if (pattern === 'tags' && c.tag) return true;
  if (pattern === 'branches' && !c.tag && c.source !== 'merge_request_event') return true;
  const source = c.source.replace(/_event$/, '');
  if (pattern === source || pattern === `${source}s` || (source === 'push' && pattern === 'pushes')) return true;
  const regexp = /^\/(.+)\/([ismU]*)$/.exec(pattern);
  if (regexp) {
    try {
      const flags = regexp[2]!.includes('i') ? RE2JS.CASE_INSENSITIVE : 0;
      return RE2JS.compile(regexp[1]!, flags).matcher(c.ref).find();
    } catch {
      return false;
    }
  }
  return pattern === c.ref;
}

/** Each part of a policy that is given, checked as Build::Policy's specs are. */
function policyParts(p: CiPolicy, vars: Record<string, string>, c: PlanContext): boolean[] {
  const parts: boolean[] = [];
  if (p.refs) parts.push(p.refs.some((r) => refMatches(r, c)));
  if (p.variables) parts.push(p.variables.some((e) => expressionIsTrue(e, vars)));
  if (p.changes) parts.push(true);
  // No Kubernetes integration here: `kubernetes: active` never holds.
  if (p.kubernetes) parts.push(false);
  return parts;
}

/** Seed::Build#included? and its attributes: the job's `when` for this pipeline, or null when it is not created. */
function evaluateJob(job: CiJob, globalVars: Record<string, string>, c: PlanContext): Omit<PlannedJob, 'name' | 'stage' | 'needs' | 'job'> | null {
  const vars = { ...predefinedVariables(c), ...globalVars, ...job.variables, ...c.variables };
  if (job.rules) {
    const rule = matchingRule(job.rules, vars, c);
    // A job with rules has no `when` of its own (Entry::Processable refuses it): a rule without one is on_success.
    const when = rule ? (rule.when ?? 'on_success') : 'never';
    if (when === 'never') return null;
    return {
      when,
      startIn: rule?.startIn ?? null,
      // A manual job from a rule may fail unless the rule says otherwise (Build::Rules::Rule, 13.6).
      allowFailure: rule?.allowFailure ?? (when === 'manual' ? true : job.allowFailure),
    };
  }
  // Without rules, only defaults to branches and tags (so not merge request pipelines).
  const only = job.only ?? { refs: ['branches', 'tags'] };
  if (!policyParts(only, vars, c).every(Boolean)) return null;
  if (job.except && policyParts(job.except, vars, c).some(Boolean)) return null;
  return { when: job.when, startIn: job.startIn, allowFailure: job.allowFailure };
}

/**
 * Config::Normalizer: `parallel: N` makes N jobs named "name 1/N" ... "name N/N"; a need of the name becomes a
 * need of each of them.
 */
function parallelize(jobs: readonly PlannedJob[]): PlannedJob[] {
  const names = new Map(
    jobs.map((j) => [j.name, j.job.parallel ? Array.from({ length: j.job.parallel }, (_, i) => `${j.name} ${i + 1}/${j.job.parallel}`) : [j.name]]),
  );
  return jobs.flatMap((j) => {
    const needs = j.needs && j.needs.flatMap((n) => (names.get(n.name) ?? [n.name]).map((name) => ({ ...n, name })));
    return names.get(j.name)!.map((name) => ({ ...j, name, needs }));
  });
}

export function plan(config: CiConfig, c: PlanContext): Plan {
  const baseVars = { ...predefinedVariables(c), ...config.variables, ...c.variables };
  if (config.workflow) {
    const rule = matchingRule(config.workflow.rules, baseVars, c);
    // Chain::EvaluateWorkflowRules: no matching rule, or `when: never`, and the pipeline is not created.
    if (config.workflow.rules.length && (!rule || rule.when === 'never')) return { created: false, errors: ['Pipeline filtered out by workflow rules.'] };
  }
  const created = new Map<string, PlannedJob>();
  for (const job of config.jobs) {
    const result = evaluateJob(job, config.variables, c);
    if (result) created.set(job.name, { name: job.name, stage: job.stage, needs: job.needs, job, ...result });
  }
  const errors: string[] = [];
  const stageIndex = (name: string) => config.stages.indexOf(name);
  for (const j of created.values()) {
    if (!j.needs) continue;
    // Seed::Build#needs_errors: the limit, then each need must be a job created in an earlier stage.
    if (j.needs.length > NEEDS_LIMIT) {
      errors.push(
        `${j.name}: one job can only need ${NEEDS_LIMIT} others, but you have listed ${j.needs.length}. See needs keyword documentation for more details`,
      );
      continue;
    }
    for (const n of j.needs) {
      const other = created.get(n.name);
      if (!other || stageIndex(other.stage) >= stageIndex(j.stage)) errors.push(`${j.name}: needs '${n.name}'`);
    }
  }
  if (errors.length) return { created: false, errors };
  const jobs = parallelize([...created.values()]).sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage));
  if (!jobs.length) return { created: false, errors: ['No stages / jobs for this pipeline.'] };
  const stages = config.stages.map((name) => ({ name, jobs: jobs.filter((j) => j.stage === name) })).filter((s) => s.jobs.length);
  return { created: true, stages, jobs };
}
