// Group inputs and GitLab 13.6's group entities (Group, GroupDetail).
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView, SharedWithGroup } from '../../db/queries/projects.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { ACCESS_LEVELS, VISIBILITY_NAMES, visibilityName } from '../lib/policy.ts';
import * as z from 'zod/mini';
import { bool, id, int, modelRule, oneOf, schema, str, text } from '../lib/validate.ts';
import { ListProjectsInput, toProject } from '../projects/schemas.ts';
import { avatarUrl, isValidPath, lookupId, PATH_MESSAGE } from '../users/schemas.ts';
import { iso } from '../lib/format.ts';
import { avatarFile } from '../uploads/avatars.ts';
import { groupLimitsEntity, groupSettingsEntity, groupSettingsParams } from './settings.ts';

// Gitlab::Regex.group_name_regex and its message (13.x).
const GROUP_NAME = /^[\p{L}\p{N}\u00A9-\u{1F9FF}_][\p{L}\p{N}\p{Pd}\u00A9-\u{1F9FF}_(). ]*$/u;
const GROUP_NAME_MESSAGE = "can contain only letters, digits, emojis, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

const groupName = () => z.pipe(str(255), z.string().check(modelRule((s: string) => GROUP_NAME.test(s), GROUP_NAME_MESSAGE)));
const groupPath = () => z.pipe(str(255), z.string().check(modelRule((s: string) => isValidPath(s), PATH_MESSAGE)));

/** An access level from Gitlab::Access.all_values; anything else is `does not have a valid value`. */
export const accessLevel = () => z.pipe(int(), z.literal(ACCESS_LEVELS));

/** Grape's Array[Integer]: `key[]=1&key[]=2` (or one bare value); a non-integer item makes the whole `is invalid`. */
export const intArray = () =>
  z.pipe(
    z.transform((v: unknown) => {
      const list = Array.isArray(v) ? v : [v];
      const ints = list.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^[+-]?\d+$/.test(x.trim()) ? Number(x.trim()) : NaN));
      return ints.every((n) => Number.isSafeInteger(n)) ? ints : 'invalid';
    }),
    z.array(z.number()),
  );

/**
 * An Array[Integer] of database ids (filters): an item that is no lib/validate.ts `id()` (1..2^31-1) makes the whole
 * `does not have a valid value`, reported under the array's own name as Grape does.
 */
export const idArray = () =>
  z.pipe(
    intArray(),
    z.array(z.number()).check(z.refine((ids: number[]) => ids.every((n) => id().safeParse(n).success), { message: 'does not have a valid value' })),
  );

const editable = () => ({
  description: z.optional(text(2000)),
  visibility: z.optional(oneOf(VISIBILITY_NAMES)),
  ...groupSettingsParams(),
  avatar: z.optional(avatarFile()),
});

export const CreateGroupInput = schema(() =>
  z.object({
    name: groupName(),
    path: groupPath(),
    // JSON null means no parent, as Grape treats a nil Integer. Otherwise the parent's reference, looked up (an id
    // no group can have is `{ id: null }`: 404 Group Not Found).
    parent_id: z.optional(
      z.union([
        z.null(),
        z.pipe(
          lookupId(),
          z.transform((id) => ({ id })),
        ),
      ]),
    ),
    ...editable(),
  }),
);

export const UpdateGroupInput = schema(() => z.object({ name: z.optional(groupName()), path: z.optional(groupPath()), ...editable() }));

export const ListGroupsInput = schema(() =>
  z.object({
    ...paginationParams(),
    statistics: z.optional(bool()),
    skip_groups: z.optional(idArray()),
    all_available: z.optional(bool()),
    search: z.optional(str(255)),
    owned: z.optional(bool()),
    order_by: z._default(oneOf(['name', 'path', 'id']), 'name'),
    sort: z._default(oneOf(['asc', 'desc']), 'asc'),
    min_access_level: z.optional(accessLevel()),
    top_level_only: z.optional(bool()),
  }),
);

export const GetGroupInput = schema(() => z.object({ with_projects: z._default(bool(), true) }));

export const GroupProjectsInput = schema(() =>
  z.extend(ListProjectsInput(), {
    include_subgroups: z.optional(bool()),
    with_shared: z.optional(bool()),
  }),
);

export const groupWebUrl = (config: Config, fullPath: string) => `${config.publicUrl}/groups/${fullPath}`;

/** Entities::Group (13.6). */
export function toGroup(v: GroupView, config: Config) {
  const g = v.namespace;
  return {
    id: g.id,
    web_url: groupWebUrl(config, g.fullPath),
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: visibilityName(g.visibilityLevel),
    ...groupSettingsEntity(g, config.instanceTier),
    avatar_url: avatarUrl(config, g.avatarUrl),
    full_name: v.fullName,
    full_path: g.fullPath,
    created_at: iso(g.createdAt),
    parent_id: g.parentId,
  };
}

/**
 * Entities::GroupDetail: the group with its own projects and those shared with it that the caller can see, and the
 * runner registration token where the answer carries it (`runnersToken`: GET /groups/:id, to those who administer
 * the group).
 */
export function toGroupDetail(
  v: GroupView,
  d: { projects: ProjectView[]; sharedProjects: ProjectView[]; sharedWithGroups: SharedWithGroup[] },
  config: Config,
  o: { admin: boolean; runnersToken?: string | null },
) {
  return {
    ...toGroup(v, config),
    ...(o.admin ? groupLimitsEntity(v.namespace) : {}),
    shared_with_groups: d.sharedWithGroups,
    ...(o.runnersToken ? { runners_token: o.runnersToken } : {}),
    projects: d.projects.map((p) => toProject(p, config)),
    shared_projects: d.sharedProjects.map((p) => toProject(p, config)),
  };
}
