// Every group setting GitLab 13.6 declares for POST/PUT /groups (API::Helpers::GroupsHelpers' optional_params, CE
// and EE), in one catalog: its validator, its default, and whether this service acts on it. They are kept in the
// namespace's `settings` JSON by API name; the entity shows them with those names.
import * as z from 'zod/mini';
import type { NamespaceRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { bool, id, int, intIn, oneOf } from '../lib/validate.ts';
import { validationFailed } from '../lib/errors.ts';

type Tier = Config['instanceTier'];

/** Gitlab::Access's project_creation_string_values and subgroup_creation_string_values. */
export const PROJECT_CREATION_LEVELS = ['noone', 'maintainer', 'developer'] as const;
export const SUBGROUP_CREATION_LEVELS = ['owner', 'maintainer'] as const;
/** Gitlab::Access's project creation values (ApplicationSetting's default_project_creation) by number. */
export const PROJECT_CREATION_BY_VALUE = { 0: 'noone', 1: 'maintainer', 2: 'developer' } as const;

const SETTINGS = {
  // Refuses shares of the group's projects (sharing/service.ts).
  share_with_group_lock: { input: () => bool(), default: false, acts: true },
  require_two_factor_authentication: { input: () => bool(), default: false, acts: false },
  two_factor_grace_period: { input: () => int(), default: 48, acts: false },
  // Who may create projects and subgroups in the group: lib/policy.ts reads them (groupFacts).
  project_creation_level: { input: () => oneOf(PROJECT_CREATION_LEVELS), default: 'developer', acts: true },
  subgroup_creation_level: { input: () => oneOf(SUBGROUP_CREATION_LEVELS), default: 'maintainer', acts: true },
  auto_devops_enabled: { input: () => bool(), default: null, acts: false },
  emails_disabled: { input: () => bool(), default: null, acts: true },
  mentions_disabled: { input: () => bool(), default: null, acts: false },
  lfs_enabled: { input: () => bool(), default: true, acts: false },
  // Whether access may be requested (members/access-requests.ts, through sources/service.ts).
  request_access_enabled: { input: () => bool(), default: true, acts: true },
  default_branch_protection: { input: () => intIn([0, 1, 2, 3]), default: 2, acts: false },
  // EE (13.6's optional_params_ee).
  membership_lock: { input: () => bool(), default: false, acts: false },
  file_template_project_id: { input: () => id(), default: null, acts: false },
  shared_runners_minutes_limit: { input: () => int(), default: null, acts: false },
  extra_shared_runners_minutes_limit: { input: () => int(), default: null, acts: false },
} as const;
type Key = keyof typeof SETTINGS;

/** EE's group parameters only administrators may set (the CI minutes limits): others' are removed, as GitLab does. */
const ADMIN_ONLY: readonly Key[] = ['shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit'];

/** The settings this service stores and returns but does not act on (README's list). */
export const STORED_ONLY = (Object.keys(SETTINGS) as Key[]).filter((k) => !SETTINGS[k].acts);

type Values = { [K in Key]: z.output<ReturnType<(typeof SETTINGS)[K]['input']>> | (typeof SETTINGS)[K]['default'] };

/** The group's settings, defaults filled in. */
export function groupSettings(ns: Pick<NamespaceRow, 'settings'>): Values {
  const values = {} as Record<string, unknown>;
  for (const key of Object.keys(SETTINGS) as Key[]) values[key] = key in ns.settings ? ns.settings[key] : SETTINGS[key].default;
  return values as Values;
}

export function groupSettingsParams() {
  const params = {} as { [K in Key]: z.ZodMiniOptional<ReturnType<(typeof SETTINGS)[K]['input']>> };
  for (const key of Object.keys(SETTINGS) as Key[]) (params as Record<string, unknown>)[key] = z.optional(SETTINGS[key].input());
  return params;
}

/** What a request changes, as the model validates it; the model's errors are thrown before anything is written. */
export function groupSettingsChange(input: Partial<Record<Key, unknown>>, o: { admin: boolean }) {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as Key[]) {
    if (input[key] === undefined || (ADMIN_ONLY.includes(key) && !o.admin)) continue;
    settings[key] = input[key];
  }
  const grace = settings.two_factor_grace_period as number | undefined;
  if (grace !== undefined && grace < 0) throw validationFailed({ two_factor_grace_period: ['must be greater than or equal to 0'] });
  return settings;
}

/** What Entities::Group shows of the settings (EE's fields where the tier has them). */
export function groupSettingsEntity(ns: Pick<NamespaceRow, 'settings'>, tier: Tier) {
  const s = groupSettings(ns);
  return {
    share_with_group_lock: s.share_with_group_lock,
    require_two_factor_authentication: s.require_two_factor_authentication,
    two_factor_grace_period: s.two_factor_grace_period,
    project_creation_level: s.project_creation_level,
    auto_devops_enabled: s.auto_devops_enabled,
    subgroup_creation_level: s.subgroup_creation_level,
    emails_disabled: s.emails_disabled,
    mentions_disabled: s.mentions_disabled,
    lfs_enabled: s.lfs_enabled,
    default_branch_protection: s.default_branch_protection,
    request_access_enabled: s.request_access_enabled,
    ...(tier !== 'free' ? { membership_lock: s.membership_lock, file_template_project_id: s.file_template_project_id } : {}),
  };
}

/** EE's GroupDetail shows administrators the CI minutes limits. */
export function groupLimitsEntity(ns: Pick<NamespaceRow, 'settings'>) {
  const s = groupSettings(ns);
  return { shared_runners_minutes_limit: s.shared_runners_minutes_limit, extra_shared_runners_minutes_limit: s.extra_shared_runners_minutes_limit };
}
