// Validation and normalization of the expanded configuration, as GitLab 13.6's Gitlab::Ci::Config::Entry::Root,
// Jobs, Job, Rules and Policy entries do it, with their messages ("<location> <attribute> <problem>", where the
// location is the path of keys, e.g. `jobs:rspec:rules:rule`). Errors are collected in document order.
import { parseDuration } from './duration.ts';
import { isValidExpression } from './expression.ts';
import { isHash } from './extends.ts';
import type { CiJob, CiNeed, CiPolicy, CiRule, When } from './types.ts';

type Hash = Record<string, unknown>;

export const DEFAULT_STAGES = ['.pre', 'build', 'test', 'deploy', '.post'];
export const JOB_WHEN: readonly When[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
const RULE_WHEN = [...JOB_WHEN, 'never'];

/** Root keys that are not jobs (Entry::Root). `types` is the deprecated name of `stages`. */
export const ROOT_KEYS = new Set([
  'default',
  'include',
  'before_script',
  'image',
  'services',
  'after_script',
  'variables',
  'stages',
  'types',
  'cache',
  'workflow',
]);
const DEFAULT_KEYS = ['before_script', 'image', 'services', 'after_script', 'cache', 'interruptible', 'retry', 'tags', 'timeout', 'artifacts'];
const JOB_KEYS = new Set([
  'tags',
  'script',
  'type',
  'stage',
  'image',
  'services',
  'start_in',
  'artifacts',
  'cache',
  'dependencies',
  'before_script',
  'after_script',
  'environment',
  'coverage',
  'retry',
  'parallel',
  'interruptible',
  'timeout',
  'resource_group',
  'release',
  'secrets',
  'extends',
  'only',
  'except',
  'rules',
  'variables',
  'inherit',
  'allow_failure',
  'when',
  'needs',
  'trigger',
]);
const RULE_KEYS = new Set(['if', 'changes', 'exists', 'when', 'start_in', 'allow_failure']);
const POLICY_KEYS = new Set(['refs', 'variables', 'changes', 'kubernetes']);
/** Seed::Build's needs limit with `ci_dag_limit_needs` on (its default in 13.6). */
export const NEEDS_LIMIT = 50;
/** Entry::Job's `start_in` limit. */
const START_IN_LIMIT = 7 * 86400;

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
/** Entry::Variables: a hash whose values are strings or numbers (kept as text, as GitLab's to_s). */
const isVariables = (v: unknown): v is Record<string, string | number> =>
  isHash(v) && Object.values(v).every((x) => typeof x === 'string' || typeof x === 'number');
const toVariables = (v: Record<string, string | number>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));

/** Entry::Commands: a string, or strings and arrays of strings nested up to 10 levels, flattened. */
function commands(v: unknown, depth = 0): string[] | null {
  if (isString(v)) return [v];
  if (!Array.isArray(v) || depth > 10) return null;
  const out: string[] = [];
  for (const item of v) {
    const inner = isString(item) ? [item] : commands(item, depth + 1);
    if (!inner || (depth === 0 && !isString(item) && !Array.isArray(item))) return null;
    out.push(...inner);
  }
  return out;
}
const COMMANDS_MESSAGE = 'config should be a string or a nested array of strings up to 10 levels deep';

/** Entry::Script (before_script, after_script): an array of strings and arrays of strings (one level), flattened. */
function scriptLines(v: unknown): string[] | null {
  if (!Array.isArray(v) || !v.every((x) => isString(x) || isStrings(x))) return null;
  return v.flat();
}
const SCRIPT_MESSAGE = 'config should be an array containing strings and arrays of strings';

class Errors {
  list: string[] = [];
  add(location: string, message: string) {
    this.list.push(`${location} ${message}`);
  }
}

function unknownKeys(errors: Errors, location: string, value: Hash, allowed: ReadonlySet<string>) {
  const extra = Object.keys(value).filter((k) => !allowed.has(k));
  if (extra.length) errors.add(location, `config contains unknown keys: ${extra.join(', ')}`);
}

/** Entry::Rules::Rule, for jobs and workflow. */
function rules(errors: Errors, location: string, value: unknown, allowedWhen: readonly string[]): CiRule[] | null {
  if (!Array.isArray(value) || !value.every(isHash)) {
    errors.add(location, 'rules should be an array of hashes');
    return null;
  }
  const at = `${location}:rules:rule`;
  return value.map((rule): CiRule => {
    unknownKeys(errors, at, rule, RULE_KEYS);
    const out: CiRule = {};
    if (rule.if !== undefined) {
      if (!isString(rule.if)) errors.add(at, 'if should be a string');
      else if (!isValidExpression(rule.if)) errors.add(at, 'if invalid expression syntax');
      else out.if = rule.if;
    }
    for (const key of ['changes', 'exists'] as const) {
      if (rule[key] === undefined) continue;
      if (!isStrings(rule[key])) errors.add(at, `${key} should be an array of strings`);
      else out[key] = rule[key];
    }
    if (rule.when !== undefined) {
      if (!isString(rule.when) || !allowedWhen.includes(rule.when)) errors.add(at, `when unknown value: ${String(rule.when)}`);
      else out.when = rule.when as CiRule['when'];
    }
    if (rule.start_in !== undefined) {
      if (out.when !== 'delayed') errors.add(at, 'start in must be blank');
      else if (!isString(rule.start_in) || parseDuration(rule.start_in) === null) errors.add(at, 'start in should be a duration');
      else out.startIn = rule.start_in;
    } else if (out.when === 'delayed') errors.add(at, "start in can't be blank");
    if (rule.allow_failure !== undefined) {
      if (typeof rule.allow_failure !== 'boolean') errors.add(at, 'allow failure should be a boolean value');
      else out.allowFailure = rule.allow_failure;
    }
    return out;
  });
}

/** Entry::Policy: an array of refs, or a hash of refs/variables/changes/kubernetes. */
function policy(errors: Errors, location: string, value: unknown): CiPolicy | null {
  if (isStrings(value)) return { refs: value };
  if (!isHash(value)) {
    errors.add(location, 'config should be an array of strings or regexps');
    return null;
  }
  unknownKeys(errors, location, value, POLICY_KEYS);
  const out: CiPolicy = {};
  if (value.refs !== undefined) {
    if (!isStrings(value.refs)) errors.add(`${location}:refs`, 'config should be an array of strings or regexps');
    else out.refs = value.refs;
  }
  if (value.variables !== undefined) {
    if (!isStrings(value.variables) || !value.variables.every(isValidExpression)) errors.add(location, 'variables invalid expression syntax');
    else out.variables = value.variables;
  }
  if (value.changes !== undefined) {
    if (!isStrings(value.changes)) errors.add(location, 'changes should be an array of strings');
    else out.changes = value.changes;
  }
  if (value.kubernetes !== undefined) {
    if (value.kubernetes !== 'active') errors.add(`${location}:kubernetes`, 'config unknown value: kubernetes');
    else out.kubernetes = 'active';
  }
  return out;
}

function needs(errors: Errors, location: string, value: unknown): CiNeed[] | null {
  const list = Array.isArray(value) ? value : [value];
  const out: CiNeed[] = [];
  for (const need of list) {
    if (isString(need)) out.push({ name: need, artifacts: true });
    else if (isHash(need) && (need.project !== undefined || need.pipeline !== undefined)) {
      // Cross-project (Premium) and parent-pipeline needs point outside this file: not planned by this server.
      errors.add(`${location}:needs:need`, 'config uses cross-project or parent-pipeline needs, which are not supported');
      return null;
    } else if (isHash(need) && isString(need.job)) {
      unknownKeys(errors, `${location}:needs:need`, need, new Set(['job', 'artifacts']));
      if (need.artifacts !== undefined && typeof need.artifacts !== 'boolean') errors.add(`${location}:needs:need`, 'artifacts should be a boolean value');
      out.push({ name: need.job, artifacts: need.artifacts !== false });
    } else {
      errors.add(`${location}:needs:need`, 'config should be a string or a hash');
      return null;
    }
  }
  return out;
}

export interface Globals {
  defaults: Hash;
  variables: Record<string, string>;
}

/** Entry::Root's global keys: `default:` and the old top-level spellings of the same keys (`default:` wins). */
export function globals(errors: Errors, root: Hash): Globals {
  const defaults: Hash = {};
  for (const key of ['image', 'services', 'before_script', 'after_script', 'cache']) if (root[key] !== undefined) defaults[key] = root[key];
  if (root.default !== undefined) {
    if (!isHash(root.default)) errors.add('default', 'config should be a hash');
    else {
      unknownKeys(errors, 'default', root.default, new Set(DEFAULT_KEYS));
      Object.assign(defaults, root.default);
    }
  }
  for (const key of ['before_script', 'after_script'])
    if (defaults[key] !== undefined && !scriptLines(defaults[key]))
      errors.add(isHash(root.default) && root.default[key] !== undefined ? `default:${key}` : key, SCRIPT_MESSAGE);
  let variables: Record<string, string> = {};
  if (root.variables !== undefined) {
    if (!isVariables(root.variables)) errors.add('variables', 'config should be a hash of key value pairs');
    else variables = toVariables(root.variables);
  }
  return { defaults, variables };
}

/** Entry::Stages: the stages list, with GitLab's `.pre` first and `.post` last whatever the file says. */
export function stages(errors: Errors, root: Hash): string[] {
  const given = root.stages ?? root.types;
  if (given === undefined) return DEFAULT_STAGES;
  if (!isStrings(given)) {
    errors.add(root.stages !== undefined ? 'stages' : 'types', 'config should be an array of strings');
    return DEFAULT_STAGES;
  }
  return ['.pre', ...given.filter((s) => s !== '.pre' && s !== '.post'), '.post'];
}

/** `inherit:` (13.6): `default`/`variables` as true, false, or the list of names to take. */
function inherited<T>(value: unknown, all: Record<string, T>): Record<string, T> {
  if (value === false) return {};
  if (isStrings(value)) return Object.fromEntries(Object.entries(all).filter(([k]) => value.includes(k)));
  return all;
}

/** Entry::Job for one visible job (its hash already has `extends` merged in). */
export function job(errors: Errors, name: string, value: Hash, g: Globals): CiJob {
  const at = `jobs:${name}`;
  unknownKeys(errors, at, value, JOB_KEYS);
  const inherit = isHash(value.inherit) ? value.inherit : {};
  const v: Hash = { ...inherited(inherit.default, g.defaults), ...value };
  const lines = (key: string, read: (x: unknown) => string[] | null, message: string) => {
    if (v[key] === undefined) return null;
    const list = read(v[key]);
    // A default's bad value is reported once, at the default.
    if (!list && Object.hasOwn(value, key)) errors.add(`${at}:${key}`, message);
    return list;
  };
  const script = lines('script', commands, COMMANDS_MESSAGE);
  const beforeScript = lines('before_script', scriptLines, SCRIPT_MESSAGE);
  const afterScript = lines('after_script', scriptLines, SCRIPT_MESSAGE);

  const stage = v.stage ?? v.type ?? 'test';
  if (!isString(stage)) errors.add(`${at}:stage`, 'config should be a string');

  let when: When = 'on_success';
  if (v.when !== undefined) {
    if (!isString(v.when) || !JOB_WHEN.includes(v.when as When)) errors.add(at, 'when should be one of: on_success, on_failure, always, manual or delayed');
    else when = v.when as When;
  }
  const hasRules = v.rules !== undefined;
  // Entry::Processable (13.6): with `rules`, these keys belong to the rules; listed in the file's order.
  const disallowed = hasRules ? Object.keys(value).filter((k) => ['only', 'except', 'when', 'start_in'].includes(k)) : [];
  if (disallowed.length) errors.add(at, `config key may not be used with \`rules\`: ${disallowed.join(', ')}`);
  let startIn: string | null = null;
  if (when === 'delayed') {
    if (v.start_in === undefined) errors.add(at, "start in can't be blank");
    else {
      const seconds = isString(v.start_in) ? parseDuration(v.start_in) : null;
      if (seconds === null) errors.add(at, 'start in should be a duration');
      else if (seconds > START_IN_LIMIT) errors.add(at, 'start in should not exceed the limit');
      else startIn = v.start_in as string;
    }
  } else if (v.start_in !== undefined && !hasRules) errors.add(at, 'start in must be blank');

  let allowFailure = when === 'manual';
  if (v.allow_failure !== undefined) {
    if (typeof v.allow_failure !== 'boolean') errors.add(at, 'allow failure should be a boolean value');
    else allowFailure = v.allow_failure;
  }
  let variables: Record<string, string> = {};
  if (v.variables !== undefined) {
    if (!isVariables(v.variables)) errors.add(`${at}:variables`, 'config should be a hash of key value pairs');
    else variables = toVariables(v.variables);
  }
  let tags: string[] = [];
  if (v.tags !== undefined) {
    if (!isStrings(v.tags)) errors.add(`${at}:tags`, 'config should be an array of strings');
    else tags = v.tags;
  }
  let dependencies: string[] | null = null;
  if (v.dependencies !== undefined) {
    if (!isStrings(v.dependencies)) errors.add(at, 'dependencies should be an array of strings');
    else dependencies = v.dependencies;
  }
  if (v.image !== undefined && !isString(v.image) && !isHash(v.image)) errors.add(`${at}:image`, 'config should be a hash or a string');
  if (v.services !== undefined && !Array.isArray(v.services)) errors.add(`${at}:services`, 'config should be a array');
  let timeout: string | null = null;
  if (v.timeout !== undefined) {
    if (!isString(v.timeout) || parseDuration(v.timeout) === null) errors.add(at, 'timeout should be a duration');
    else timeout = v.timeout;
  }
  let parallel: number | null = null;
  if (v.parallel !== undefined) {
    if (!Number.isInteger(v.parallel)) errors.add(`${at}:parallel`, 'config should be an integer or a hash');
    else if ((v.parallel as number) < 2) errors.add(`${at}:parallel`, 'config must be greater than or equal to 2');
    else if ((v.parallel as number) > 50) errors.add(`${at}:parallel`, 'config must be less than or equal to 50');
    else parallel = v.parallel as number;
  }
  let interruptible: boolean | null = null;
  if (v.interruptible !== undefined) {
    if (typeof v.interruptible !== 'boolean') errors.add(at, 'interruptible config should be a boolean value');
    else interruptible = v.interruptible;
  }

  return {
    name,
    stage: isString(stage) ? stage : 'test',
    script,
    trigger: v.trigger ?? null,
    beforeScript,
    afterScript,
    image: v.image ?? null,
    services: v.services ?? null,
    variables: { ...inherited(inherit.variables, g.variables), ...variables },
    when,
    startIn,
    allowFailure,
    needs: v.needs === undefined ? null : needs(errors, at, v.needs),
    dependencies,
    rules: hasRules ? rules(errors, at, v.rules, RULE_WHEN) : null,
    only: v.only === undefined ? null : policy(errors, `${at}:only`, v.only),
    except: v.except === undefined ? null : policy(errors, `${at}:except`, v.except),
    environment: v.environment ?? null,
    artifacts: v.artifacts ?? null,
    cache: v.cache ?? null,
    tags,
    retry: v.retry ?? null,
    timeout,
    parallel,
    interruptible,
    coverage: isString(v.coverage) ? v.coverage : null,
    resourceGroup: isString(v.resource_group) ? v.resource_group : null,
  };
}

/** Entry::Workflow: `rules` only, whose `when` is always or never. */
export function workflow(errors: Errors, value: unknown): { rules: CiRule[] } | null {
  if (value === undefined) return null;
  if (!isHash(value)) {
    errors.add('workflow', 'config should be a hash');
    return null;
  }
  unknownKeys(errors, 'workflow', value, new Set(['rules']));
  return { rules: value.rules === undefined ? [] : (rules(errors, 'workflow', value.rules, ['always', 'never']) ?? []) };
}

export { Errors };
