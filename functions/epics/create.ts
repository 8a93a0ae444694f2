// Epics::CreateService: POST /groups/:id/epics and GraphQL's createEpic; the parent checked under the tree lock, the
// iid, the epic, its labels, mention to-dos, the `created` event and `new_epic` notification in one transaction.
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import type { Db } from '../../db/client.ts';
import * as q from '../../db/queries/epics.ts';
import { setEpicLabels } from '../labels/statements.ts';
import * as qWrites from '../../db/queries/epics/writes.ts';
import { lockEpicTree, treeFacts } from '../../db/queries/epics/links.ts';
import { newEpicFacts, parentErrors, parentFieldErrors } from './tree-rules.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { nextIid } from '../../db/queries/lib/internal-ids.ts';
import { recordEvent } from '../events/record.ts';
import { notify } from '../notifications/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, epicsAvailable } from '../lib/policy.ts';
import { epicFacts, epicGroup } from './service.ts';
import { labelIdsFor, type DateFields, dateChanges, epicMentionTodos } from './write-steps.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface CreateEpicFields extends DateFields {
  title: string;
  description?: string | null | undefined;
  confidential?: boolean | undefined;
  labels?: readonly string[] | undefined;
  labelIds?: readonly number[] | undefined;
  parent_id?: number | undefined;
}

const PARENT_INVALID = 'The parent is not valid';

/** POST /groups/:id/epics and createEpic: reporters and above (`authorize!(:admin_epic, user_group)`). */
export async function createEpic({ ctx, input }: Verb<{ ref: Ref | null } & CreateEpicFields>) {
  const user = requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  assertCan(ctx.actor, 'group:create_epic', epicFacts(ctx, group));
  return insertEpicIn(ctx, group, user.id, input);
}

/** The create itself, the group authorized: one transaction (iid, epic, label links). */
export async function insertEpicIn(ctx: RequestContext, group: GroupView, authorId: number, input: CreateEpicFields) {
  const title = stripTitle(input.title);
  const invalid = issuableErrors({ title, description: input.description });
  if (invalid) throw validationFailed(invalid);
  if (input.parent_id !== undefined) {
    // Epic#validate_parent: the parent is an epic of this group or one of its ancestors.
    const [parent] = await q.findEpicViewsByIds(ctx.db, [input.parent_id]);
    if (!parent || !group.namespace.traversalIds.includes(parent.epic.groupId)) throw validationFailed({ parent: [PARENT_INVALID] });
  }
  const dates = dateChanges(input);
  const groupId = group.namespace.id;
  const row = await ctx.transaction(async (tx) => {
    if (input.parent_id !== undefined) {
      // Epic#validate_parent's depth and confidentiality, against the tree as it is under the tree lock (concurrent
      // links and creates cannot together exceed the depth).
      await lockEpicTree(tx, group.namespace.traversalIds[0] ?? groupId);
      const parent = (await treeFacts(tx, [input.parent_id])).get(input.parent_id);
      const errors = parent ? parentErrors(newEpicFacts(groupId, input.confidential ?? false), parent) : [];
      if (errors.length) throw validationFailed(parentFieldErrors(errors));
    }
    const labelIds = [...(input.labelIds ?? []), ...(await labelIdsFor(tx, group, input.labels ?? []))];
    const iid = await nextIid(tx, 'epics', { namespaceId: groupId });
    const epic = await qWrites.insertEpic(tx, {
      groupId,
      iid,
      authorId,
      title,
      description: input.description ?? null,
      confidential: input.confidential ?? false,
      parentId: input.parent_id ?? null,
      startDateFixed: dates.startDateFixed ?? null,
      startDateIsFixed: dates.startDateIsFixed ?? null,
      dueDateFixed: dates.dueDateFixed ?? null,
      dueDateIsFixed: dates.dueDateIsFixed ?? null,
    });
    if (labelIds.length) await setEpicLabels(tx, epic.id, [...new Set(labelIds)]);
    await epicMentionTodos(ctx, tx, group, epic, authorId);
    await recordEpicCreated(ctx, tx, group, epic.id, authorId);
    return epic;
  });
  return { group, epic: (await q.findEpicView(ctx.db, groupId, row.iid))! };
}

/**
 * EventCreateService#open_epic (the group's event, project_id null) and, on Premium and above, the `new_epic`
 * notification's outbox row (NotificationService#new_epic), in the epic's transaction.
 */
async function recordEpicCreated(ctx: RequestContext, tx: Db, group: GroupView, epicId: number, authorId: number) {
  await recordEvent(tx, { action: 'created', authorId, groupId: group.namespace.id, target: { type: 'Epic', id: epicId } });
  if (epicsAvailable(ctx.config.instanceTier))
    await notify(tx, ctx, { action: 'new_epic', target: { type: 'Epic', id: epicId }, groupId: group.namespace.id, actorId: authorId });
}
