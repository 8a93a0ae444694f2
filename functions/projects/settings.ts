// Every project setting GitLab 13.6 declares for POST/PUT /projects (API::Helpers::ProjectsHelpers'
// optional_project_params, CE and EE, and optional_update_params), in one catalog: its validator, its default, where
// it is kept (a column of `projects`, or its `settings` JSON by API name) and how the entity shows it. The project
// verbs apply what this file turns a request into; no setting is accepted and dropped.
import * as z from 'zod/mini';
import type { ProjectRow } from '../../db/schema/index.ts';
import { validationFailed } from '../lib/errors.ts';
import type { Config } from '../lib/context.ts';
import { bool, id, int, oneOf, str, text, type Output } from '../lib/validate.ts';
import { labelList } from '../issuables/schemas.ts';

type Tier = Config['instanceTier'];

/** ProjectFeature's access levels and their API names. */
export const FEATURE_LEVEL = { disabled: 0, private: 10, enabled: 20, public: 30 } as const;
const LEVEL_NAMES = ['disabled', 'private', 'enabled'] as const;
export const featureLevelName = (level: number) => (level >= 30 ? 'public' : level >= 20 ? 'enabled' : level >= 10 ? 'private' : 'disabled');

/** The features with an access level, and the column each is kept in. */
export const FEATURE_COLUMNS = {
  issues: 'issuesAccessLevel',
  repository: 'repositoryAccessLevel',
  merge_requests: 'mergeRequestsAccessLevel',
  forking: 'forkingAccessLevel',
  wiki: 'wikiAccessLevel',
  builds: 'buildsAccessLevel',
  snippets: 'snippetsAccessLevel',
  pages: 'pagesAccessLevel',
} as const satisfies Record<string, keyof ProjectRow>;
export type Feature = keyof typeof FEATURE_COLUMNS;

/** The deprecated booleans (`issues_enabled`...) and the feature each one switches between enabled and disabled. */
const FEATURE_SWITCHES = {
  issues_enabled: 'issues',
  merge_requests_enabled: 'merge_requests',
  wiki_enabled: 'wiki',
  jobs_enabled: 'builds',
  snippets_enabled: 'snippets',
} as const satisfies Record<string, Feature>;

/**
 * The settings kept in `settings`, with GitLab 13.6's defaults for a new project. `acts` says whether this service
 * does what the setting asks (README lists the others: stored and returned so that tools converge).
 */
const STORED = {
  build_git_strategy: { input: () => oneOf(['fetch', 'clone']), default: 'fetch', acts: false },
  build_timeout: { input: () => int(), default: 3600, acts: true },
  auto_cancel_pending_pipelines: { input: () => oneOf(['disabled', 'enabled']), default: 'enabled', acts: false },
  build_coverage_regex: { input: () => str(255), default: null, acts: false },
  ci_config_path: { input: () => str(255), default: null, acts: true },
  service_desk_enabled: { input: () => bool(), default: false, acts: false },
  emails_disabled: { input: () => bool(), default: null, acts: true },
  show_default_award_emojis: { input: () => bool(), default: true, acts: false },
  resolve_outdated_diff_discussions: { input: () => bool(), default: false, acts: false },
  container_registry_enabled: { input: () => bool(), default: true, acts: false },
  lfs_enabled: { input: () => bool(), default: true, acts: false },
  // Whether access may be requested (members/access-requests.ts, through sources/service.ts).
  request_access_enabled: { input: () => bool(), default: true, acts: true },
  // Whether a skipped head pipeline counts as passed (merge-requests/mergeability.ts's mergeable_ci_state?).
  allow_merge_on_skipped_pipeline: { input: () => bool(), default: false, acts: true },
  tag_list: { input: () => labelList(), default: [] as string[], acts: false },
  printing_merge_request_link_enabled: { input: () => bool(), default: true, acts: true },
  suggestion_commit_message: { input: () => str(255), default: null, acts: false },
  packages_enabled: { input: () => bool(), default: true, acts: false },
  autoclose_referenced_issues: { input: () => bool(), default: true, acts: false },
  auto_devops_enabled: { input: () => bool(), default: false, acts: false },
  auto_devops_deploy_strategy: { input: () => oneOf(['continuous', 'manual', 'timed_incremental']), default: 'continuous', acts: false },
  repository_storage: { input: () => str(255), default: 'default', acts: false },
  squash_option: { input: () => oneOf(['never', 'always', 'default_on', 'default_off']), default: 'default_off', acts: true },
  ci_default_git_depth: { input: () => int(), default: 50, acts: true },
  ci_forward_deployment_enabled: { input: () => bool(), default: true, acts: false },
  // EE (13.6's optional_project_params_ee).
  approvals_before_merge: { input: () => int(), default: 0, acts: false },
  mirror: { input: () => bool(), default: false, acts: false },
  mirror_user_id: { input: () => id(), default: null, acts: false },
  mirror_trigger_builds: { input: () => bool(), default: false, acts: false },
  only_mirror_protected_branches: { input: () => bool(), default: false, acts: false },
  mirror_overwrites_diverged_branches: { input: () => bool(), default: false, acts: false },
  import_url: { input: () => str(1000), default: null, acts: false },
  external_authorization_classification_label: { input: () => str(255), default: '', acts: false },
  merge_pipelines_enabled: { input: () => bool(), default: false, acts: false },
  merge_trains_enabled: { input: () => bool(), default: false, acts: false },
  issues_template: { input: () => text(65_535), default: null, acts: false },
  merge_requests_template: { input: () => text(65_535), default: null, acts: false },
} as const;
type StoredKey = keyof typeof STORED;

/** ProjectsHelpers' `optional_update_params`: declared on PUT only. */
const UPDATE_ONLY = ['ci_default_git_depth', 'ci_forward_deployment_enabled'] as const satisfies readonly StoredKey[];

/** EE's filter_attributes_using_license!: without the license these are removed from the request, as GitLab does. */
const LICENSED: Partial<Record<StoredKey, (tier: Tier) => boolean>> = {
  mirror: (t) => t !== 'free',
  mirror_user_id: (t) => t !== 'free',
  mirror_trigger_builds: (t) => t !== 'free',
  only_mirror_protected_branches: (t) => t !== 'free',
  mirror_overwrites_diverged_branches: (t) => t !== 'free',
  external_authorization_classification_label: (t) => t !== 'free',
};

/** The settings this service stores and returns but does not act on (README's list). */
export const STORED_ONLY = (Object.keys(STORED) as StoredKey[]).filter((k) => !STORED[k].acts);

type StoredValues = { [K in StoredKey]: z.output<ReturnType<(typeof STORED)[K]['input']>> | (typeof STORED)[K]['default'] };

/** BasicProjectDetails' `tag_list` (and later GitLab's `topics`): the tags, sorted by name as the entity sorts them. */
export const projectTags = (p: Pick<ProjectRow, 'settings'>) => [...projectSettings(p).tag_list].sort();

/** The stored settings of a project, defaults filled in. */
export const projectSettings = (p: Pick<ProjectRow, 'settings'>): StoredValues => {
  const values = {} as Record<string, unknown>;
  for (const key of Object.keys(STORED) as StoredKey[]) values[key] = key in p.settings ? p.settings[key] : STORED[key].default;
  return values as StoredValues;
};

/** The parameters: the feature access levels, the deprecated switches and aliases, and the stored settings. */
export function projectSettingsParams(kind: 'create' | 'update') {
  const stored = {} as { [K in StoredKey]: z.ZodMiniOptional<ReturnType<(typeof STORED)[K]['input']>> };
  for (const key of Object.keys(STORED) as StoredKey[]) {
    if (kind === 'create' && (UPDATE_ONLY as readonly string[]).includes(key)) continue;
    (stored as Record<string, unknown>)[key] = z.optional(STORED[key].input());
  }
  return {
    ...stored,
    issues_access_level: z.optional(oneOf(LEVEL_NAMES)),
    repository_access_level: z.optional(oneOf(LEVEL_NAMES)),
    merge_requests_access_level: z.optional(oneOf(LEVEL_NAMES)),
    forking_access_level: z.optional(oneOf(LEVEL_NAMES)),
    wiki_access_level: z.optional(oneOf(LEVEL_NAMES)),
    builds_access_level: z.optional(oneOf(LEVEL_NAMES)),
    snippets_access_level: z.optional(oneOf(LEVEL_NAMES)),
    pages_access_level: z.optional(oneOf(['disabled', 'private', 'enabled', 'public'])),
    issues_enabled: z.optional(bool()),
    merge_requests_enabled: z.optional(bool()),
    wiki_enabled: z.optional(bool()),
    jobs_enabled: z.optional(bool()),
    snippets_enabled: z.optional(bool()),
    shared_runners_enabled: z.optional(bool()),
    public_jobs: z.optional(bool()),
    // Deprecated names of public_jobs and tag_list (later GitLab's `topics`, accepted as its alias).
    public_builds: z.optional(bool()),
    topics: z.optional(labelList()),
  };
}

type SettingsInput = Partial<Output<() => z.ZodMiniObject<ReturnType<typeof projectSettingsParams>>>>;

export interface SettingsChange {
  columns: Partial<Pick<ProjectRow, (typeof FEATURE_COLUMNS)[Feature] | 'sharedRunnersEnabled' | 'publicBuilds'>>;
  settings: Record<string, unknown>;
}

/**
 * What a request changes, validated as the models validate it (Project, ProjectFeature, ProjectCiCdSetting): the
 * model's errors are thrown (validationFailed) before anything is written. `current` is the project being updated
 * (absent on create).
 */
export async function settingsChange(input: SettingsInput, tier: Tier, current: ProjectRow | undefined): Promise<SettingsChange> {
  const columns: SettingsChange['columns'] = {};
  const levels = {} as Record<Feature, number | undefined>;
  for (const [param, feature] of Object.entries(FEATURE_SWITCHES) as [keyof typeof FEATURE_SWITCHES, Feature][]) {
    const on = input[param];
    if (on !== undefined) levels[feature] = on ? FEATURE_LEVEL.enabled : FEATURE_LEVEL.disabled;
  }
  // An access level wins over its deprecated switch sent with it.
  for (const feature of Object.keys(FEATURE_COLUMNS) as Feature[]) {
    const name = input[`${feature}_access_level`];
    if (name !== undefined) levels[feature] = FEATURE_LEVEL[name];
  }
  for (const feature of Object.keys(FEATURE_COLUMNS) as Feature[]) {
    if (levels[feature] !== undefined) columns[FEATURE_COLUMNS[feature]] = levels[feature];
  }
  if (input.shared_runners_enabled !== undefined) columns.sharedRunnersEnabled = input.shared_runners_enabled;
  const publicJobs = input.public_jobs ?? input.public_builds;
  if (publicJobs !== undefined) columns.publicBuilds = publicJobs;

  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(STORED) as StoredKey[]) {
    const value = input[key as keyof SettingsInput];
    if (value === undefined) continue;
    const licensed = LICENSED[key];
    if (licensed && !licensed(tier)) continue;
    settings[key] = value;
  }
  if (settings.tag_list === undefined && input.topics !== undefined) settings.tag_list = input.topics;

  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  // ProjectFeature#repository_children_level: merge requests and jobs are no more open than the repository.
  const level = (f: Feature) => levels[f] ?? (current ? current[FEATURE_COLUMNS[f]] : FEATURE_LEVEL.enabled);
  for (const f of ['merge_requests', 'builds'] as const) {
    if (level(f) > level('repository')) add(`project_feature.${f}_access_level`, 'cannot have higher visibility level than repository access level');
  }
  const timeout = settings.build_timeout as number | undefined;
  if (timeout !== undefined && (timeout < 600 || timeout > 2_592_000)) add('build_timeout', 'needs to be between 10 minutes and 1 month');
  const depth = settings.ci_default_git_depth as number | undefined;
  if (depth !== undefined && depth < 0) add('ci_cd_settings.default_git_depth', 'must be greater than or equal to 0');
  if (depth !== undefined && depth > 1000) add('ci_cd_settings.default_git_depth', 'must be less than or equal to 1000');
  const configPath = settings.ci_config_path as string | undefined;
  if (configPath && /\.\.|^\//.test(configPath)) add('ci_config_path', 'cannot include leading slash or directory traversal.');
  if (configPath === '') settings.ci_config_path = null;
  const regex = settings.build_coverage_regex as string | undefined;
  if (regex) {
    // UntrustedRegexpValidator: RE2's syntax (re2js, loaded only when a pattern is given).
    const { RE2JS } = await import('re2js');
    try {
      RE2JS.compile(regex);
    } catch (error) {
      add('build_coverage_regex', `not valid RE2 syntax: ${(error as Error).message}`);
    }
  }
  if (settings.build_coverage_regex === '') settings.build_coverage_regex = null;
  // Gitlab.config.repositories.storages: this service has the one storage, `default`.
  if (settings.repository_storage !== undefined && settings.repository_storage !== 'default') add('repository_storage', 'is not included in the list');
  const approvals = settings.approvals_before_merge as number | undefined;
  if (approvals !== undefined && approvals < 0) add('approvals_before_merge', 'must be greater than or equal to 0');
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { columns, settings };
}

/** The feature levels of a new project: pages are private unless the project is public (ProjectFeature's default). */
export const newProjectColumns = (visibilityLevel: number, change: SettingsChange) => ({
  pagesAccessLevel: visibilityLevel >= 20 ? FEATURE_LEVEL.enabled : FEATURE_LEVEL.private,
  ...change.columns,
  settings: change.settings,
});

/** What the project entity shows of the settings, as Entities::Project (and EE's) names them. */
export function settingsEntity(p: ProjectRow, o: { tier: Tier; canAdmin: boolean; isAdmin: boolean; featureOpenFor: (f: Feature) => boolean }) {
  const s = projectSettings(p);
  const premium = o.tier !== 'free';
  return {
    resolve_outdated_diff_discussions: s.resolve_outdated_diff_discussions,
    container_registry_enabled: s.container_registry_enabled,
    issues_enabled: o.featureOpenFor('issues'),
    merge_requests_enabled: o.featureOpenFor('merge_requests'),
    wiki_enabled: o.featureOpenFor('wiki'),
    jobs_enabled: o.featureOpenFor('builds'),
    snippets_enabled: o.featureOpenFor('snippets'),
    service_desk_enabled: s.service_desk_enabled,
    service_desk_address: null,
    issues_access_level: featureLevelName(p.issuesAccessLevel),
    repository_access_level: featureLevelName(p.repositoryAccessLevel),
    merge_requests_access_level: featureLevelName(p.mergeRequestsAccessLevel),
    forking_access_level: featureLevelName(p.forkingAccessLevel),
    wiki_access_level: featureLevelName(p.wikiAccessLevel),
    builds_access_level: featureLevelName(p.buildsAccessLevel),
    snippets_access_level: featureLevelName(p.snippetsAccessLevel),
    pages_access_level: featureLevelName(p.pagesAccessLevel),
    emails_disabled: s.emails_disabled,
    shared_runners_enabled: p.sharedRunnersEnabled,
    lfs_enabled: s.lfs_enabled,
    ci_default_git_depth: s.ci_default_git_depth,
    ci_forward_deployment_enabled: s.ci_forward_deployment_enabled,
    public_jobs: p.publicBuilds,
    // Entities::Project shows the CI settings to those who administer the project.
    ...(o.canAdmin
      ? {
          build_git_strategy: s.build_git_strategy,
          build_timeout: s.build_timeout,
          auto_cancel_pending_pipelines: s.auto_cancel_pending_pipelines,
          build_coverage_regex: s.build_coverage_regex,
          ci_config_path: s.ci_config_path,
        }
      : {}),
    request_access_enabled: s.request_access_enabled,
    allow_merge_on_skipped_pipeline: s.allow_merge_on_skipped_pipeline,
    printing_merge_request_link_enabled: s.printing_merge_request_link_enabled,
    suggestion_commit_message: s.suggestion_commit_message,
    squash_option: s.squash_option,
    packages_enabled: s.packages_enabled,
    auto_devops_enabled: s.auto_devops_enabled,
    auto_devops_deploy_strategy: s.auto_devops_deploy_strategy,
    autoclose_referenced_issues: s.autoclose_referenced_issues,
    ...(o.isAdmin ? { repository_storage: s.repository_storage } : {}),
    show_default_award_emojis: s.show_default_award_emojis,
    // EE::API::Entities::Project: shown where the instance's license has the feature.
    ...(premium
      ? {
          approvals_before_merge: s.approvals_before_merge,
          mirror: s.mirror,
          ...(s.mirror
            ? {
                mirror_user_id: s.mirror_user_id,
                mirror_trigger_builds: s.mirror_trigger_builds,
                only_mirror_protected_branches: s.only_mirror_protected_branches,
                mirror_overwrites_diverged_branches: s.mirror_overwrites_diverged_branches,
              }
            : {}),
          external_authorization_classification_label: s.external_authorization_classification_label,
          merge_pipelines_enabled: s.merge_pipelines_enabled,
          merge_trains_enabled: s.merge_trains_enabled,
          issues_template: s.issues_template,
          merge_requests_template: s.merge_requests_template,
        }
      : {}),
    ...(o.canAdmin ? { import_url: s.import_url } : {}),
  };
}
