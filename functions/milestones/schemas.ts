// Milestone inputs (lib/api/milestone_responses.rb, project_milestones.rb, group_milestones.rb) and
// Entities::Milestone.
import type { MilestoneRow } from '../../db/schema/index.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, dateParam, int, oneOf, schema, str, text } from '../lib/validate.ts';
import { iso } from '../lib/format.ts';

/** A date (lib/validate.ts's dateParam: `2020-01-01`, `2020-01-01T00:00:00Z`...); an empty value (or JSON null) clears it. */
const optionalDate = () =>
  z.optional(
    z.pipe(
      z.transform((v: unknown) => (v === '' ? null : v)),
      z.nullable(dateParam()),
    ),
  );

/** `iids[]=1&iids[]=2`, or `iids=1,2` (CommaSeparatedToIntegerArray). */
const iids = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? v.split(',').filter((s) => s !== '') : typeof v === 'number' ? [v] : v)),
    z.array(int()),
  );

const listParams = () => ({
  ...paginationParams(),
  state: z.optional(oneOf(['active', 'closed', 'all'])),
  iids: z.optional(iids()),
  title: z.optional(str(255)),
  search: z.optional(str(255)),
});

export const ListProjectMilestonesInput = schema(() =>
  z.object({
    ...listParams(),
    include_parent_milestones: z.optional(bool()),
    /** The name in GitLab 13.x; include_parent_milestones is its newer spelling. */
    include_parent_group_milestones: z.optional(bool()),
  }),
);

export const ListGroupMilestonesInput = schema(() =>
  z.object({
    ...listParams(),
    include_parent_milestones: z.optional(bool()),
    include_ancestors: z.optional(bool()),
  }),
);

/** Titles are checked against 255 characters as a model error; this only bounds the request. */
const title = () => str(10_000);
const optionalFields = () => ({
  description: z.optional(z.nullable(text(65_535))),
  due_date: optionalDate(),
  start_date: optionalDate(),
});

export const CreateMilestoneInput = schema(() => z.object({ title: title(), ...optionalFields() }));

export const UpdateMilestoneInput = schema(() =>
  z.object({
    title: z.optional(title()),
    state_event: z.optional(oneOf(['close', 'activate'])),
    ...optionalFields(),
  }),
);

/** Grape's at_least_one_of on updates. */
export const UPDATE_FIELDS = ['title', 'description', 'start_date', 'due_date', 'state_event'] as const;

/** `:milestone_id`: GitLab's global id (Integer); ids no row can have resolve to not found. */
export const MilestonePath = () => ({
  milestone_id: z.pipe(
    z.string().check(z.regex(/^\d+$/)),
    z.transform((v) => (Number(v) <= 2_147_483_647 ? Number(v) : null)),
  ),
});

const today = () => new Date().toISOString().slice(0, 10);

/** Where a milestone lives, for its web_url. */
export interface MilestoneOwner {
  /** The project's path_with_namespace, or the group's full path. */
  fullPath: string;
}

/** Entities::Milestone. `expired` is Milestoneish#expired (`expired? || false`): a due date in the past. */
export function toMilestone(m: MilestoneRow, owner: MilestoneOwner, config: Config) {
  return {
    id: m.id,
    iid: m.iid,
    ...(m.projectId !== null ? { project_id: m.projectId } : {}),
    ...(m.groupId !== null ? { group_id: m.groupId } : {}),
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    due_date: m.dueDate,
    start_date: m.startDate,
    expired: m.dueDate !== null && m.dueDate < today(),
    web_url:
      m.groupId !== null ? `${config.publicUrl}/groups/${owner.fullPath}/-/milestones/${m.iid}` : `${config.publicUrl}/${owner.fullPath}/-/milestones/${m.iid}`,
  };
}
