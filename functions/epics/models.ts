// What GraphQL's epic types are resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { EpicView } from '../../db/queries/epics.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import type { EpicIssueRow } from '../../db/schema/index.ts';
import type { IssueModel } from '../issues/models.ts';

/** An epic with its group (the policy's facts come from the group). */
export interface EpicModel {
  view: EpicView;
  group: GroupView;
}

/** An issue of an epic: the issue with its project, and the association. */
export type EpicIssueModel = IssueModel & { link: EpicIssueRow; /** The epic's web path (the relation's path hangs under it). */ epicPath: string };

/** An epic shown on a board (its user preferences are the board's). */
export type BoardEpicModel = EpicModel & { boardId: number };
