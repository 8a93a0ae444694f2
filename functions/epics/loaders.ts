// The epics' per-request loaders (graphql/loaders.ts assembles every domain's): DataLoaders over the batched verbs of
// reads.ts, epic-links.ts (the tree's aggregates) and boards.ts (epics on issue boards).
import type { EpicFilter, EpicOrder } from '../../db/queries/epics.ts';
import type { BoardModel } from '../boards/models.ts';
import { each, perParent, stableKey } from '../graphql/batch-loaders.ts';
import type { RequestContext } from '../lib/context.ts';
import { boardEpicPreferences, epicsOfBoard } from './boards.ts';
import { descendantAggregatesOf } from './epic-links.ts';
import type { EpicModel } from './models.ts';
import { childrenOfEpics, epicsByIds, issueModelsOfEpics, participantsOfEpics, relationCounts, subscribedOf } from './reads.ts';

export const epicLoaders = (ctx: RequestContext) => ({
  /** Readable epics by id (parents), null when missing or hidden. */
  epic: each((ids: readonly number[]) => epicsByIds(ctx, ids)),
  /** Epic.children by parent epic id and filters: one statement per filter set. */
  epicChildren: perParent((parentIds: number[], a: { filter: Omit<EpicFilter, 'parentIds'>; order: EpicOrder }) =>
    childrenOfEpics(ctx, parentIds, a.filter, a.order),
  ),
  /** Epic.issues by epic id (readable issues, in the epic's order). */
  epicIssues: each(
    (epics: readonly EpicModel[]) => issueModelsOfEpics(ctx, epics),
    (e) => e.view.epic.id,
  ),
  /** Children and issue counts by epic id (hasChildren, hasIssues). */
  epicRelations: each((ids: readonly number[]) => relationCounts(ctx, ids)),
  /** Epic.participants by epic: one statement for the page. */
  epicParticipants: each(
    (epics: readonly EpicModel[]) => participantsOfEpics(ctx, epics),
    (e) => e.view.epic.id,
  ),
  /** Epic.subscribed by epic id. */
  epicSubscribed: each((ids: readonly number[]) => subscribedOf(ctx, ids)),
  /** Epic.descendantCounts / descendantWeightSum by epic id: one statement for the page. */
  epicDescendants: each((ids: readonly number[]) => descendantAggregatesOf(ctx, ids)),
  /** Board.epics by (board, the ids of its issues): one statement per board. */
  boardEpics: each(
    (keys: ReadonlyArray<{ board: BoardModel; issueIds: number[] }>) => Promise.all(keys.map((k) => epicsOfBoard(ctx, k.board, k.issueIds))),
    (k) => stableKey({ board: k.board.board.id, issueIds: k.issueIds }),
  ),
  /** BoardEpic.userPreferences by (board, epic): one statement per board. */
  boardEpicPreferences: perParent((epicIds: number[], boardId: number) => boardEpicPreferences(ctx, boardId, epicIds)),
});
