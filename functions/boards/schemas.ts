// Board inputs (lib/api/boards.rb, group_boards.rb and EE's boards_responses.rb, 13.6) and Entities::Board /
// Entities::List with EE's additions, which show only where the instance's tier has the license feature.
import * as z from 'zod/mini';
import type { ListView } from '../../db/queries/boards/lists.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { LIST_TYPES, type BoardRow, type LabelRow, type ListType, type MilestoneRow, type UserRow } from '../../db/schema/index.ts';
import { labelList } from '../issuables/schemas.ts';
import { groupWebUrl } from '../groups/schemas.ts';
import { toLabelBasic } from '../labels/schemas.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { boardFeatureAvailable } from '../lib/policy.ts';
import { exactlyOneOf, int, pathId, schema, str } from '../lib/validate.ts';
import { toMilestone } from '../milestones/schemas.ts';
import { toBasicProject } from '../projects/schemas.ts';
import { toUserBasic } from '../users/schemas.ts';

export const BoardPath = () => ({ board_id: pathId() });
export const ListPath = () => ({ board_id: pathId(), list_id: pathId() });

export const ListInput = schema(() => z.object(paginationParams()));

/** POST: `requires :name, type: String`. */
export const CreateBoardInput = schema(() => z.object({ name: str(255) }));

/**
 * PUT (EE update_params): name, and the scope (assignee_id, milestone_id, labels: comma-separated titles, weight),
 * which only the scoped_issue_board license applies.
 */
export const UpdateBoardInput = schema(() =>
  z.object({
    name: z.optional(str(255)),
    assignee_id: z.optional(int()),
    milestone_id: z.optional(int()),
    labels: z.optional(labelList()),
    weight: z.optional(int()),
  }),
);

/** POST lists (EE): exactly one of label_id, milestone_id, assignee_id. */
export const CreateListInput = schema(() =>
  z
    .object({ label_id: z.optional(int()), milestone_id: z.optional(int()), assignee_id: z.optional(int()) })
    .check(exactlyOneOf(['label_id', 'milestone_id', 'assignee_id'])),
);

/** PUT lists: `requires :position, type: Integer`. */
export const MoveListInput = schema(() => z.object({ position: int() }));

/** The board's parent as its entities and GraphQL need it. */
export type BoardOwner = { kind: 'project'; view: ProjectView } | { kind: 'group'; view: GroupView };

/** A board with what its entity shows: its movable lists and (scoped boards) its milestone, assignee and labels. */
export interface BoardView {
  board: BoardRow;
  lists: ListView[];
  milestone: { milestone: MilestoneRow; path: string } | null;
  assignee: UserRow | null;
  labels: LabelRow[];
}

export const listTypeName = (value: number): ListType => (Object.keys(LIST_TYPES) as ListType[]).find((k) => LIST_TYPES[k] === value)!;

/** GitLab's special board milestones (Milestone::Upcoming / Started), rendered by SpecialBoardFilter. */
const SPECIAL_MILESTONES: Record<number, string> = { [-2]: 'Upcoming', [-3]: 'Started' };

/** Entities::List (EE): milestone/assignee only on lists of that type; WIP limits only with the wip_limits feature. */
export function toList(v: ListView, config: Config) {
  const type = listTypeName(v.list.listType);
  return {
    id: v.list.id,
    label: v.label ? toLabelBasic(v.label) : null,
    position: v.list.position,
    ...(type === 'milestone' && v.milestone ? { milestone: toMilestone(v.milestone, { fullPath: v.milestonePath ?? '' }, config) } : {}),
    ...(type === 'assignee' && v.user ? { assignee: { id: v.user.id, username: v.user.username, name: v.user.name } } : {}),
    ...(boardFeatureAvailable(config.instanceTier, 'wip_limits')
      ? { max_issue_count: v.list.maxIssueCount, max_issue_weight: v.list.maxIssueWeight, limit_metric: v.list.limitMetric }
      : {}),
  };
}

/**
 * Entities::Board (EE): id, name, project, lists, group; the scope keys (milestone, assignee, labels, weight) only
 * with the scoped_issue_board feature.
 */
export function toBoard(v: BoardView, owner: BoardOwner, config: Config) {
  const b = v.board;
  const milestoneId = b.milestoneId;
  const special = milestoneId !== null ? SPECIAL_MILESTONES[milestoneId] : undefined;
  return {
    id: b.id,
    name: b.name,
    project: owner.kind === 'project' ? toBasicProject(owner.view.project, owner.view.namespace, config, owner.view.forksCount, owner.view.repository) : null,
    lists: v.lists.map((l) => toList(l, config)),
    group:
      owner.kind === 'group'
        ? { id: owner.view.namespace.id, web_url: groupWebUrl(config, owner.view.namespace.fullPath), name: owner.view.namespace.name }
        : null,
    ...(boardFeatureAvailable(config.instanceTier, 'scoped_issue_board')
      ? {
          milestone: special
            ? { id: milestoneId, title: special }
            : v.milestone
              ? toMilestone(v.milestone.milestone, { fullPath: v.milestone.path }, config)
              : null,
          assignee: v.assignee ? toUserBasic(v.assignee, config) : null,
          labels: v.labels.map(toLabelBasic),
          weight: b.weight,
        }
      : {}),
  };
}
