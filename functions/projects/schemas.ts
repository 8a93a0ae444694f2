// Project inputs and GitLab's project entities (BasicProjectDetails, Project, ProjectWithAccess).
import type { ProjectView } from '../../db/queries/projects.ts';
import type { NamespaceRow, ProjectRow, UserRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { keysetParams, paginationParams } from '../lib/pagination.ts';
import { ACCESS_LEVELS, VISIBILITY_NAMES, visibilityName } from '../lib/policy.ts';
import { parseRef } from '../lib/ids.ts';
import * as z from 'zod/mini';
import { bool, id, int, intIn, modelRule, oneOf, schema, str, text } from '../lib/validate.ts';
import { avatarUrl, isValidPath, toUserBasic } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';
import { avatarFile } from '../uploads/avatars.ts';
import { effectivePolicy, type EffectivePolicy } from '../container-expiration-policies/rules.ts';
import { FEATURE_COLUMNS, FEATURE_LEVEL, projectSettingsParams, projectTags, settingsEntity, type Feature } from './settings.ts';

/** API::Entities::ContainerExpirationPolicy (13.6). */
const toContainerExpirationPolicy = (p: EffectivePolicy) => ({
  cadence: p.cadence,
  enabled: p.enabled,
  keep_n: p.keepN,
  older_than: p.olderThan,
  name_regex: p.nameRegex,
  name_regex_keep: p.nameRegexKeep,
  next_run_at: iso(p.nextRunAt),
});

export const PROJECT_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const NAME_MESSAGE = "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";
const NAME_PATTERN = /^[\p{L}\p{N}\p{Emoji_Presentation}_][\p{L}\p{N}\p{Emoji_Presentation}_. +-]*$/u;

const projectPath = () => z.pipe(str(255), z.string().check(modelRule((s: string) => isValidPath(s), PROJECT_PATH_MESSAGE)));
const projectName = () => z.pipe(str(255), z.string().check(modelRule((s: string) => NAME_PATTERN.test(s), NAME_MESSAGE)));
/** `namespace_id`/`namespace`: a numeric id or a full path; null when it cannot name anything (out of range). */
const namespaceRef = () =>
  z.pipe(
    str(1000),
    z.transform((s: string) => parseRef(s)),
  );

const editable = () => ({
  description: z.optional(text(2000)),
  visibility: z.optional(oneOf(VISIBILITY_NAMES)),
  default_branch: z.optional(str(255)),
  avatar: z.optional(avatarFile()),
  // Merge request settings (GitLab's merge_method values; `remove_source_branch_after_merge` is a new MR's default).
  merge_method: z.optional(oneOf(['merge', 'rebase_merge', 'ff'])),
  remove_source_branch_after_merge: z.optional(bool()),
  only_allow_merge_if_all_discussions_are_resolved: z.optional(bool()),
  only_allow_merge_if_pipeline_succeeds: z.optional(bool()),
});

export const CreateProjectInput = schema(() =>
  z.object({
    name: z.optional(projectName()),
    path: z.optional(projectPath()),
    namespace_id: z.optional(namespaceRef()),
    ...editable(),
    ...projectSettingsParams('create'),
    container_expiration_policy_attributes: z.optional(containerExpirationPolicyAttributes()),
    // A first commit with README.md on the default branch (functions/repositories/store/initial-commit.ts).
    initialize_with_readme: z.optional(bool()),
  }),
);

/** `container_expiration_policy_attributes` (13.6 ProjectsHelpers): Grape's types; the model validates the values. */
const containerExpirationPolicyAttributes = () =>
  z.object({
    cadence: z.optional(str(12)),
    keep_n: z.optional(int()),
    older_than: z.optional(str(12)),
    name_regex: z.optional(str(1000)),
    name_regex_keep: z.optional(str(1000)),
    enabled: z.optional(bool()),
  });

// `container_expiration_policy_attributes[cadence]=7d` arrives nested (lib/rack-params.ts).
export const UpdateProjectInput = schema(() =>
  z.object({
    name: z.optional(projectName()),
    path: z.optional(projectPath()),
    ...editable(),
    ...projectSettingsParams('update'),
    container_expiration_policy_attributes: z.optional(containerExpirationPolicyAttributes()),
    // EE (13.6): `{ framework: "sox" }`; a blank framework removes the setting.
    compliance_framework_setting: z.optional(z.object({ framework: z.optional(oneOf(['gdpr', 'hipaa', 'pci_dss', 'soc_2', 'sox', ''])) })),
  }),
);

export const ForkProjectInput = schema(() =>
  z.object({
    namespace: z.optional(namespaceRef()),
    namespace_id: z.optional(namespaceRef()),
    namespace_path: z.optional(str(1000)),
    name: z.optional(projectName()),
    path: z.optional(projectPath()),
    description: z.optional(text(2000)),
    visibility: z.optional(oneOf(VISIBILITY_NAMES)),
  }),
);

const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

export const ListProjectsInput = schema(() =>
  z.object({
    ...paginationParams(),
    ...keysetParams(),
    order_by: z.optional(oneOf(ORDER_BY)),
    sort: z._default(oneOf(['asc', 'desc']), 'desc'),
    archived: z.optional(bool()),
    visibility: z.optional(oneOf(VISIBILITY_NAMES)),
    search: z.optional(str(255)),
    owned: z.optional(bool()),
    starred: z.optional(bool()),
    membership: z.optional(bool()),
    simple: z.optional(bool()),
    statistics: z.optional(bool()),
    min_access_level: z.optional(intIn(ACCESS_LEVELS)),
    id_after: z.optional(id()),
    id_before: z.optional(id()),
  }),
);

export const StarrersInput = schema(() => z.object({ ...paginationParams(), search: z.optional(str(255)) }));

/** GET /projects/:id/users: `skip_users` as an array or comma-separated (CommaSeparatedToIntegerArray). */
export const ProjectUsersInput = schema(() =>
  z.object({
    ...paginationParams(),
    search: z.optional(str(255)),
    skip_users: z.optional(
      z.pipe(
        z.transform((v: unknown) => {
          const items = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
          const ints = items.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^[+-]?\d+$/.test(x.trim()) ? Number(x.trim()) : NaN));
          // Not an array when an item is no integer: the whole parameter is invalid, as Grape reports it.
          return ints.every((n) => Number.isSafeInteger(n)) ? ints : 'invalid';
        }),
        z.array(z.number()),
      ),
    ),
  }),
);

/** PUT /projects/:id/transfer: the new namespace, by id or full path. */
export const TransferProjectInput = schema(() => z.object({ namespace: str(255) }));

/** GitLab derives a path from a name: lower case, runs of other characters become '-'. */
export const pathFromName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .toLowerCase() || 'project';

export const projectWebUrl = (config: Config, p: Pick<ProjectRow, 'pathWithNamespace'>) => `${config.publicUrl}/${p.pathWithNamespace}`;

/** Entities::NamespaceBasic as embedded in a project. */
export function toNamespaceBasic(ns: NamespaceRow, config: Config) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId,
    avatar_url: avatarUrl(config, ns.avatarUrl),
    web_url: ns.kind === 'user' ? `${config.publicUrl}/${ns.fullPath}` : `${config.publicUrl}/groups/${ns.fullPath}`,
  };
}

/** Entities::BasicProjectDetails: what anonymous callers and `simple=true` get in lists. */
/** What the entity says about the repository (db/queries/projects.ts's repository facts); absent: an empty one. */
export interface RepositoryFacts {
  defaultBranch: string | null;
  empty: boolean;
  readmePath: string | null;
}

/** `readme_url`: Project#readme_url, `<web_url>/-/blob/<default branch>/<readme path>`, null without a README. */
const readmeUrl = (config: Config, p: Pick<ProjectRow, 'pathWithNamespace'>, r: RepositoryFacts | undefined) =>
  r && !r.empty && r.defaultBranch && r.readmePath ? `${projectWebUrl(config, p)}/-/blob/${r.defaultBranch}/${r.readmePath}` : null;

export function toBasicProject(p: ProjectRow, ns: NamespaceRow, config: Config, forksCount: number, repository?: RepositoryFacts) {
  const host = new URL(config.publicUrl).hostname;
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: nameWithNamespace(p, ns),
    path: p.path,
    path_with_namespace: p.pathWithNamespace,
    created_at: iso(p.createdAt),
    // Project#default_branch: the repository's HEAD, nil while the repository is empty (callers without the
    // repository's facts, e.g. a fork's source, show the stored column).
    default_branch: repository ? (repository.empty ? null : repository.defaultBranch) : p.defaultBranch,
    tag_list: projectTags(p),
    topics: projectTags(p),
    ssh_url_to_repo: `git@${host}:${p.pathWithNamespace}.git`,
    http_url_to_repo: `${config.publicUrl}/${p.pathWithNamespace}.git`,
    web_url: projectWebUrl(config, p),
    readme_url: readmeUrl(config, p, repository),
    avatar_url: avatarUrl(config, p.avatarUrl),
    forks_count: forksCount,
    star_count: p.starCount,
    last_activity_at: iso(p.lastActivityAt),
    namespace: toNamespaceBasic(ns, config),
  };
}

// Group names nest as "Parent / Child" in name_with_namespace; the stored full name is not kept separately, so the
// path stands in for ancestors' names.
const namespaceHumanName = (ns: NamespaceRow) => (ns.kind === 'user' ? ns.name : ns.fullPath.split('/').slice(0, -1).concat(ns.name).join(' / '));

/** Project#full_name / name_with_namespace: "Namespace / Project". */
export const nameWithNamespace = (p: Pick<ProjectRow, 'name'>, ns: NamespaceRow) => `${namespaceHumanName(ns)} / ${p.name}`;

/** What Entities::Project shows only to some: the runner registration token (`user_can_admin_project`). */
export interface ProjectExtras {
  runnersToken?: string | null | undefined;
  /** The caller administers the project (user_can_admin_project): the CI settings are shown. */
  canAdmin?: boolean | undefined;
  /** The caller is an administrator: `repository_storage` is shown. */
  isAdmin?: boolean | undefined;
  /** Which features are open to the caller (lib/policy's featureAvailable); without it, those enabled for all readers. */
  featureOpen?: ((f: Feature) => boolean) | undefined;
}

/** Entities::Project */
export function toProject(v: ProjectView, config: Config, extra: ProjectExtras = {}) {
  const p = v.project;
  const base = `${config.publicUrl}/api/v4/projects/${p.id}`;
  const entity: Record<string, unknown> = {
    ...toBasicProject(p, v.namespace, config, v.forksCount, v.repository),
    _links: {
      self: base,
      issues: `${base}/issues`,
      merge_requests: `${base}/merge_requests`,
      repo_branches: `${base}/repository/branches`,
      labels: `${base}/labels`,
      events: `${base}/events`,
      members: `${base}/members`,
    },
    empty_repo: v.repository.empty,
    archived: p.archived,
    visibility: visibilityName(p.visibilityLevel),
    ...(v.owner ? { owner: toUserBasic(v.owner as UserRow, config) } : {}),
    can_create_merge_request_in: true,
    ...settingsEntity(p, {
      tier: config.instanceTier,
      canAdmin: extra.canAdmin ?? false,
      isAdmin: extra.isAdmin ?? false,
      featureOpenFor: extra.featureOpen ?? ((f) => p[FEATURE_COLUMNS[f]] >= FEATURE_LEVEL.enabled),
    }),
    creator_id: p.creatorId,
    import_status: 'none',
    ...(extra.runnersToken ? { runners_token: extra.runnersToken } : {}),
    shared_with_groups: v.sharedWithGroups,
    only_allow_merge_if_pipeline_succeeds: p.onlyAllowMergeIfPipelineSucceeds,
    only_allow_merge_if_all_discussions_are_resolved: p.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: p.removeSourceBranchAfterMerge,
    merge_method: p.mergeMethod,
    container_expiration_policy: toContainerExpirationPolicy(effectivePolicy(v.containerExpirationPolicy, p)),
    // EE::API::Entities::Project: the framework's key, in a list (none: empty).
    compliance_frameworks: v.complianceFramework ? [v.complianceFramework] : [],
  };
  if (v.forkedFrom && v.forkedFromNamespace) {
    entity.forked_from_project = toBasicProject(v.forkedFrom, v.forkedFromNamespace, config, 0);
  }
  return entity;
}

const accessEntity = (level: number | null) => (level == null ? null : { access_level: level, notification_level: 3 });

/** Entities::ProjectWithAccess: the project plus the caller's `permissions`. */
export function toProjectWithAccess(v: ProjectView, config: Config, extra: ProjectExtras = {}) {
  return { ...toProject(v, config, extra), permissions: { project_access: accessEntity(v.directAccess), group_access: accessEntity(v.groupAccess) } };
}

/** Entities::UserStarsProject */
export function toStarrer(r: { starredSince: Date; user: UserRow }, config: Config) {
  return { starred_since: r.starredSince.toISOString(), user: toUserBasic(r.user, config) };
}

/** Entities::ProjectIdentity */
export function toProjectIdentity(p: { project: ProjectRow; namespace: NamespaceRow }, config: Config) {
  const b = toBasicProject(p.project, p.namespace, config, 0);
  return {
    id: b.id,
    description: b.description,
    name: b.name,
    name_with_namespace: b.name_with_namespace,
    path: b.path,
    path_with_namespace: b.path_with_namespace,
    created_at: b.created_at,
  };
}
