// What GraphQL's Board and BoardList types are resolved from. schema/codegen.ts maps each `<Type>Model` exported here
// to the GraphQL type <Type>.
import type { ListView } from '../../db/queries/boards/lists.ts';
import type { BoardRow, ListRow } from '../../db/schema/index.ts';
import type { BoardIssueFilters } from './issue-filters.ts';
import type { Parent } from './service.ts';

/** A board the actor may read, with its parent. */
export interface BoardModel {
  board: BoardRow;
  parent: Parent;
}

/**
 * A list of a readable board; `siblings` are the board's licensed movable lists (what the backlog leaves out);
 * `issueFilters` are Board.lists(issueFilters:), which issuesCount and totalWeight apply.
 */
export interface BoardListModel {
  view: ListView;
  board: BoardModel;
  siblings: readonly ListRow[];
  issueFilters: BoardIssueFilters | null;
}
