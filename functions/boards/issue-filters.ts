// BoardIssueInput (13.6 BoardIssueFilterable) as the issues finder's parameters: the board reuses THE issue list
// filter (issues/filter.ts), so what a board list shows matches the issue lists.
import type { BoardIssueExtra } from '../../db/queries/boards/list-issues.ts';
import type { IssueFinderParams } from '../issues/filter.ts';

/** NegatedBoardIssueInput. */
export interface NegatedBoardIssueFilters {
  assigneeUsername?: ReadonlyArray<string | null> | null | undefined;
  authorUsername?: string | null | undefined;
  epicId?: string | null | undefined;
  labelName?: ReadonlyArray<string | null> | null | undefined;
  milestoneTitle?: string | null | undefined;
  myReactionEmoji?: string | null | undefined;
  releaseTag?: string | null | undefined;
  weight?: string | null | undefined;
}

export interface BoardIssueFilters {
  assigneeUsername?: ReadonlyArray<string | null> | null | undefined;
  authorUsername?: string | null | undefined;
  epicId?: string | null | undefined;
  epicWildcardId?: string | null | undefined;
  labelName?: ReadonlyArray<string | null> | null | undefined;
  milestoneTitle?: string | null | undefined;
  myReactionEmoji?: string | null | undefined;
  not?: NegatedBoardIssueFilters | null | undefined;
  releaseTag?: string | null | undefined;
  search?: string | null | undefined;
  weight?: string | null | undefined;
}

export const INCOMPATIBLE_EPIC_ARGUMENTS = 'Incompatible arguments: epicId, epicWildcardId.';

/** EE filter_by_epic: both epic arguments at once is an ArgumentError (GraphQL raises it as a top-level error). */
export const incompatibleEpicArguments = (f: BoardIssueFilters | null | undefined) => f?.epicId != null && f.epicWildcardId != null;

/**
 * The finder's parameters for these filters (epic filtering itself is the epics part's). Several assignee usernames
 * are ANDed (EE IssuesFinder#by_assignee: `assigned_to` each). The board's own scope is not applied here: GitLab's
 * Boards::Issues::ListService does not merge it (13.6's board app puts it in the filters it sends).
 */
export function boardIssueParams(f: BoardIssueFilters | null | undefined): IssueFinderParams {
  const p: IssueFinderParams = {};
  if (!f) return p;
  const labels = (f.labelName ?? []).filter((l): l is string => l != null);
  if (labels.length) p.labels = labels;
  if (f.milestoneTitle != null) p.milestone = f.milestoneTitle;
  const assignees = (f.assigneeUsername ?? []).filter((u): u is string => u != null);
  if (assignees.length) p.assignee_username = assignees;
  if (f.authorUsername != null) p.author_username = f.authorUsername;
  if (f.search) p.search = f.search;
  return p;
}

const names = (v: ReadonlyArray<string | null> | null | undefined) => {
  const found = (v ?? []).filter((x): x is string => x != null);
  return found.length ? found : undefined;
};
const given = (v: string | null | undefined) => v ?? undefined;

/**
 * The filters the issue list filter has no field for (db/queries/boards.ts adds them): myReactionEmoji for the
 * current user, weight where weights are licensed, releaseTag, and every `not` negation.
 */
export function boardIssueExtra(f: BoardIssueFilters | null | undefined, userId: number | null, weights: boolean): BoardIssueExtra {
  const n = f?.not;
  return {
    userId,
    myReactionEmoji: given(f?.myReactionEmoji),
    weight: weights ? given(f?.weight) : undefined,
    releaseTag: given(f?.releaseTag),
    not: n
      ? {
          labels: names(n.labelName),
          milestone: given(n.milestoneTitle),
          assigneeUsernames: names(n.assigneeUsername),
          authorUsername: given(n.authorUsername),
          myReactionEmoji: given(n.myReactionEmoji),
          weight: weights ? given(n.weight) : undefined,
          releaseTag: given(n.releaseTag),
        }
      : undefined,
  };
}
