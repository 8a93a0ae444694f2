// The `.gitlab-ci.yml` GitLab 13.6's Security::CiConfiguration::SastBuildActions writes for configureSast: the
// project's existing configuration (from the default branch) with `stages` gaining `test` and the SAST stage,
// `variables` and a `sast` job block holding only the settings whose value differs from its default, disabled
// analyzers listed in SAST_EXCLUDED_ANALYZERS, and the SAST template included; blank entries dropped, dumped as Ruby's
// to_yaml (block sequences at the key's indentation, single quotes) without the document marker, under GitLab's
// comment. The file is created, or updated when the default branch has one.
import { stringify } from 'yaml';

export interface SastEntity {
  field: string;
  defaultValue: string;
  value: string;
}

export interface SastAnalyzer {
  name: string;
  enabled: boolean;
  variables?: readonly SastEntity[] | null | undefined;
}

export interface SastConfiguration {
  global?: readonly SastEntity[] | null | undefined;
  pipeline?: readonly SastEntity[] | null | undefined;
  analyzers?: readonly SastAnalyzer[] | null | undefined;
}

export const SAST_TEMPLATE = 'Security/SAST.gitlab-ci.yml';
const GLOBAL_VARIABLES = ['SECURE_ANALYZERS_PREFIX'];
const SAST_VARIABLES = [
  'SAST_ANALYZER_IMAGE_TAG',
  'SAST_EXCLUDED_PATHS',
  'SEARCH_MAX_DEPTH',
  'SAST_EXCLUDED_ANALYZERS',
  'SAST_BRAKEMAN_LEVEL',
  'SAST_BANDIT_EXCLUDED_PATHS',
  'SAST_FLAWFINDER_LEVEL',
  'SAST_GOSEC_LEVEL',
];

const SAST_COMMENT = `# You can override the included template(s) by including variable overrides
# See https://docs.gitlab.com/ee/user/application_security/sast/#customizing-the-sast-settings
# Note that environment variables can be set in several places
# See https://docs.gitlab.com/ee/ci/variables/#priority-of-environment-variables
`;

type Yaml = Record<string, unknown>;
const isMap = (v: unknown): v is Yaml => v !== null && typeof v === 'object' && !Array.isArray(v);

/** ActiveSupport's `present?`: not nil, false, a blank string, or an empty array or hash. */
function present(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

const selectPresent = (h: Yaml): Yaml => Object.fromEntries(Object.entries(h).filter(([, v]) => present(v)));

/** collect_values: global, then pipeline, then the enabled analyzers' entries; SAST_EXCLUDED_ANALYZERS last. */
function collectValues(config: SastConfiguration, key: 'value' | 'defaultValue'): Record<string, string | undefined> {
  const pairs = (entities: readonly SastEntity[] | null | undefined) => (entities ?? []).map((e) => [e.field, e[key]] as const);
  const analyzers = config.analyzers ?? [];
  const analyzerPairs = analyzers.filter((a) => a.enabled && a.variables).flatMap((a) => pairs(a.variables));
  const excluded =
    key === 'defaultValue'
      ? ''
      : config.analyzers
        ? analyzers
            .filter((a) => !a.enabled)
            .map((a) => a.name)
            .sort()
            .join(', ')
        : undefined;
  return { ...Object.fromEntries([...pairs(config.global), ...pairs(config.pipeline), ...analyzerPairs]), SAST_EXCLUDED_ANALYZERS: excluded };
}

const sameKeys = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Ruby's Hash#to_yaml (Psych, YAML 1.1: `'yes'`, `'on'` and `'1:20'` stay strings by quoting) for what
 * YAML.safe_load gave, without the `---` line.
 */
const toYaml = (doc: Yaml) => stringify(doc, { indentSeq: false, singleQuote: true, version: '1.1' }).replace(/^---\n/gm, '');

/**
 * The commit action for `.gitlab-ci.yml`: `existing` is the default branch's file as YAML.safe_load reads it
 * (undefined when there is none, or it is empty).
 */
export function sastBuildActions(config: SastConfiguration, existing: unknown): { action: 'create' | 'update'; filePath: string; content: string } {
  const content: Yaml = isMap(existing) ? { ...existing } : {};
  const action = present(content) ? 'update' : 'create';
  // `variables(params)`: without global entries GitLab reads the raw parameters, which name no variable.
  const values = present(config.global) ? collectValues(config, 'value') : {};
  const defaults = collectValues(config, 'defaultValue');
  const stage = present(values.stage) ? values.stage! : 'test';

  const setVariables = (keys: readonly string[], into: Yaml) => {
    for (const key of keys) {
      const value = values[key];
      if (present(value) && String(value) !== String(defaults[key] ?? '')) into[key] = value;
      else delete into[key];
    }
    return into;
  };

  const stages = Array.isArray(content.stages) ? (content.stages as unknown[]) : [];
  content.stages = [...new Set([...stages, 'test', stage])];
  content.variables = setVariables(GLOBAL_VARIABLES, isMap(content.variables) ? { ...content.variables } : {});
  const sast: Yaml = isMap(content.sast) ? { ...content.sast } : {};
  sast.variables = setVariables(SAST_VARIABLES, {});
  sast.stage = stage;
  content.sast = selectPresent(sast);
  const includes = content.include === undefined || content.include === null ? [] : Array.isArray(content.include) ? content.include : [content.include];
  content.include = [...includes, { template: SAST_TEMPLATE }].filter((inc, i, all) => all.findIndex((other) => sameKeys(other, inc)) === i);

  return { action, filePath: '.gitlab-ci.yml', content: SAST_COMMENT + toYaml(selectPresent(content)) };
}
