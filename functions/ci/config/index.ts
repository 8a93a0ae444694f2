// parseCiConfig: a `.gitlab-ci.yml` text to GitLab 13.6's normalized configuration or its error messages, in the
// order of Gitlab::Ci::YamlProcessor: YAML, root format, includes, `extends`, entry validation, then the checks
// across jobs (stage exists, needs and dependencies in prior stages). Pure apart from reading templates.
import { Errors, globals, job, ROOT_KEYS, stages, workflow } from './entries.ts';
import { ExtendsError, isHash, resolveExtends } from './extends.ts';
import { expandIncludes, IncludeError, type LocalReader, type TemplateReader } from './includes.ts';
import { loadYaml } from './load.ts';
import type { CiJob, ParseResult } from './types.ts';

export type { CiConfig, CiJob, CiNeed, CiPolicy, CiRule, ParseResult, When } from './types.ts';
export type { LocalReader, TemplateReader } from './includes.ts';

/** Gitlab::Config::Loader::Yaml's size limit (1 MB). */
const MAX_YAML_SIZE = 1024 * 1024;

export interface ParseOptions {
  templates: TemplateReader;
  /** The project's files for `include: local` (project lint); absent for the instance-wide lint. */
  local?: LocalReader;
}

const failed = (...errors: string[]): ParseResult => ({ ok: false, errors, warnings: [] });

export async function parseCiConfig(text: string, options: ParseOptions): Promise<ParseResult> {
  if (!text.trim()) return failed('Please provide content of .gitlab-ci.yml');
  if (new TextEncoder().encode(text).length > MAX_YAML_SIZE) return failed('The parsed YAML is too big');
  const loaded = loadYaml(text);
  if (!loaded.ok) return failed(loaded.error);
  if (!isHash(loaded.value)) return failed('Invalid configuration format');

  let expanded: Record<string, unknown>;
  try {
    expanded = resolveExtends(await expandIncludes(loaded.value, { templates: options.templates, local: options.local }));
  } catch (e) {
    if (e instanceof IncludeError || e instanceof ExtendsError) return failed(e.message);
    throw e;
  }

  const errors = new Errors();
  const g = globals(errors, expanded);
  const stageList = stages(errors, expanded);
  const wf = workflow(errors, expanded.workflow);
  const jobs: CiJob[] = [];
  for (const [name, value] of Object.entries(expanded)) {
    if (ROOT_KEYS.has(name) || name.startsWith('.')) continue;
    // Entry::Jobs: a job is a hash with `script` (Job) or `trigger` (Bridge); anything else matches neither.
    if (!isHash(value) || (value.script === undefined && value.trigger === undefined)) {
      // Added by the Jobs entry under the job's name: "jobs rspec config ...", with a space (13.6).
      errors.add(`jobs ${name}`, 'config should implement a script: or a trigger: keyword');
      continue;
    }
    jobs.push(job(errors, name, value, g));
  }
  // has_visible_job? counts jobs that are Jobs or Bridges: a file whose only jobs lack a script gets both messages.
  if (jobs.length === 0) errors.add('jobs', 'config should contain at least one visible job');
  if (errors.list.length) return failed(...errors.list);

  const crossErrors = validateAcrossJobs(jobs, stageList);
  if (crossErrors.length) return failed(...crossErrors);
  return { ok: true, config: { stages: stageList, jobs, variables: g.variables, workflow: wf, merged: expanded }, warnings: [] };
}

/** YamlProcessor#validate_job!: the stage exists; dependencies and needs name jobs of earlier stages. */
function validateAcrossJobs(jobs: readonly CiJob[], stageList: readonly string[]): string[] {
  const stageOf = new Map(jobs.map((j) => [j.name, stageList.indexOf(j.stage)]));
  const errors: string[] = [];
  for (const j of jobs) {
    const index = stageOf.get(j.name)!;
    if (index < 0) {
      errors.push(`${j.name} job: chosen stage does not exist; available stages are ${stageList.join(', ')}`);
      continue;
    }
    const check = (other: string, kind: 'dependency' | 'need') => {
      const otherIndex = stageOf.get(other);
      if (otherIndex === undefined) errors.push(`${j.name} job: undefined ${kind}: ${other}`);
      // 13.6 has no same-stage needs: a need (and so the DAG) only points to earlier stages, which rules out cycles.
      else if (otherIndex < 0 || otherIndex >= index) errors.push(`${j.name} job: ${kind} ${other} is not defined in prior stages`);
    };
    for (const d of j.dependencies ?? []) check(d, 'dependency');
    for (const n of j.needs ?? []) check(n.name, 'need');
  }
  return errors;
}
