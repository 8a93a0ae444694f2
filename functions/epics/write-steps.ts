// What an epic's create and update share inside their transaction: labels by title (found in the group or its
// ancestors, else created), the date fields the request sets, mention to-dos.
import type { Db } from '../../db/client.ts';
import * as qLabels from '../../db/queries/epics/labels.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { DEFAULT_LABEL_COLOR } from '../labels/lookups.ts';
import { insertLabel } from '../labels/statements.ts';
import { readerActor } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { can } from '../lib/policy.ts';
import type { EpicRow } from '../../db/schema/index.ts';
import { createEpicMentionTodos } from '../todos/epic-mentions.ts';
import { epicFacts } from './service.ts';

/**
 * Group labels by title in the group or its ancestors; missing ones are created in the group
 * (Labels::FindOrCreateService), inside the epic's transaction so a refused write leaves no new label behind.
 */
export async function labelIdsFor(tx: Db, group: GroupView, titles: readonly string[]): Promise<number[]> {
  if (!titles.length) return [];
  const found = await qLabels.findGroupLabelsByTitles(tx, group.namespace.traversalIds, titles);
  const ids = titles.map((t) => found.find((l) => l.title === t && l.groupId === group.namespace.id)?.id ?? found.find((l) => l.title === t)?.id);
  const out: number[] = [];
  for (const [i, title] of titles.entries()) {
    const known = ids[i];
    if (known !== undefined) out.push(known);
    else {
      const created = await insertLabel(
        tx,
        { kind: 'group', groupId: group.namespace.id, groupIds: [] },
        { title, color: DEFAULT_LABEL_COLOR, description: null, priority: null },
      );
      const again = created ?? (await qLabels.findGroupLabelsByTitles(tx, [group.namespace.id], [title]))[0];
      if (again) out.push(again.id);
    }
  }
  return [...new Set(out)];
}

export interface DateFields {
  start_date?: string | null | undefined;
  start_date_fixed?: string | null | undefined;
  start_date_is_fixed?: boolean | undefined;
  end_date?: string | null | undefined;
  due_date_fixed?: string | null | undefined;
  due_date_is_fixed?: boolean | undefined;
}

/** The date columns the request sets (declared names first, then the documented ones). */
export const dateChanges = (input: DateFields) => ({
  startDateFixed: input.start_date !== undefined ? input.start_date : input.start_date_fixed,
  startDateIsFixed: input.start_date_is_fixed,
  dueDateFixed: input.end_date !== undefined ? input.end_date : input.due_date_fixed,
  dueDateIsFixed: input.due_date_is_fixed,
});

/**
 * Mention to-dos for an epic's title and description (TodoService#new_epic/#update_epic, GitLab 13.6 EE): users
 * newly mentioned (not in `before`) who may read the epic; in the epic's transaction.
 */
export async function epicMentionTodos(
  ctx: RequestContext,
  tx: Db,
  group: GroupView,
  epic: Pick<EpicRow, 'id' | 'title' | 'description' | 'confidential'>,
  authorId: number,
  before?: Pick<EpicRow, 'title' | 'description'>,
) {
  await createEpicMentionTodos(tx, {
    epicId: epic.id,
    groupId: group.namespace.id,
    authorId,
    traversalIds: group.namespace.traversalIds,
    texts: [epic.title, epic.description],
    before: before ? [before.title, before.description] : undefined,
    mayRead: (user, accessLevel) =>
      can(readerActor(user), 'group:read_epic', { ...epicFacts(ctx, group, epic.confidential), accessLevel, hasDescendantAccess: false }),
  });
}
