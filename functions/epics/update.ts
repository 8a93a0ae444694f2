// Epics::UpdateService: PUT /groups/:id/epics/:epic_iid and GraphQL's updateEpic; fields, labels, state events
// (with their `closed`/`reopened` events) and mention to-dos in one transaction.
import { issuableErrors, stripTitle } from '../issuables/validation.ts';
import * as q from '../../db/queries/epics.ts';
import type { EpicView } from '../../db/queries/epics.ts';
import { setEpicLabels } from '../labels/statements.ts';
import * as qWrites from '../../db/queries/epics/writes.ts';
import type { GroupView } from '../../db/queries/groups.ts';
import { recordEvent } from '../events/record.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { paramErrors, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan } from '../lib/policy.ts';
import { UPDATE_FIELDS } from './schemas.ts';
import { epicFacts, epicGroup, readEpic } from './service.ts';
import { labelIdsFor, type DateFields, dateChanges, epicMentionTodos } from './write-steps.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface UpdateEpicFields extends DateFields {
  title?: string | undefined;
  description?: string | null | undefined;
  confidential?: boolean | undefined;
  labels?: readonly string[] | undefined;
  add_labels?: readonly string[] | undefined;
  remove_labels?: readonly string[] | undefined;
  addLabelIds?: readonly number[] | undefined;
  removeLabelIds?: readonly number[] | undefined;
  state_event?: 'close' | 'reopen' | undefined;
}

/** PUT /groups/:id/epics/:epic_iid (admin_epic on the epic). */
export async function updateEpic({ ctx, input }: Verb<{ ref: Ref | null; iid: number | null } & UpdateEpicFields>) {
  const withDocumentedNames = {
    ...input,
    start_date_fixed: input.start_date_fixed ?? input.start_date,
    due_date_fixed: input.due_date_fixed ?? input.end_date,
  };
  if (UPDATE_FIELDS.every((f) => withDocumentedNames[f] === undefined))
    throw paramErrors([`${UPDATE_FIELDS.join(', ')} are missing, at least one parameter must be provided`]);
  const user = requireUser(ctx);
  const group = await epicGroup(ctx, input.ref);
  const current = await readEpic(ctx, group, input.iid);
  assertCan(ctx.actor, 'group:admin_epic', epicFacts(ctx, group, current.epic.confidential));
  return applyEpicUpdate(ctx, group, current, user.id, input);
}

/** The update itself, the epic authorized: one transaction. */
export async function applyEpicUpdate(ctx: RequestContext, group: GroupView, current: EpicView, userId: number, input: UpdateEpicFields) {
  const title = input.title === undefined ? undefined : stripTitle(input.title);
  const invalid = issuableErrors({ title, description: input.description });
  if (invalid) throw validationFailed(invalid);
  const dates = dateChanges(input);
  const e = current.epic;
  const closing = input.state_event === 'close' && e.state === 'opened';
  const reopening = input.state_event === 'reopen' && e.state === 'closed';
  const labelChange = input.labels !== undefined || input.add_labels || input.remove_labels || input.addLabelIds || input.removeLabelIds;
  await ctx.transaction(async (tx) => {
    let labelIds: number[] | undefined;
    if (labelChange) {
      const existing = current.labels.map((l) => l.id);
      const base = input.labels !== undefined ? await labelIdsFor(tx, group, input.labels) : existing;
      const add = [...(await labelIdsFor(tx, group, input.add_labels ?? [])), ...(input.addLabelIds ?? [])];
      const removeByTitle = current.labels.filter((l) => input.remove_labels?.includes(l.title)).map((l) => l.id);
      const remove = new Set([...removeByTitle, ...(input.removeLabelIds ?? [])]);
      labelIds = [...new Set([...base, ...add])].filter((id) => !remove.has(id));
    }
    await qWrites.updateEpic(tx, e.id, {
      ...(title !== undefined ? { title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.confidential !== undefined ? { confidential: input.confidential } : {}),
      ...(dates.startDateFixed !== undefined ? { startDateFixed: dates.startDateFixed } : {}),
      ...(dates.startDateIsFixed !== undefined ? { startDateIsFixed: dates.startDateIsFixed } : {}),
      ...(dates.dueDateFixed !== undefined ? { dueDateFixed: dates.dueDateFixed } : {}),
      ...(dates.dueDateIsFixed !== undefined ? { dueDateIsFixed: dates.dueDateIsFixed } : {}),
      // Epic#close / #reopen: closed_at (and closed_by) set on close, cleared on reopen.
      ...(closing ? { state: 'closed' as const, closedAt: new Date(), closedById: userId } : {}),
      ...(reopening ? { state: 'opened' as const, closedAt: null, closedById: null } : {}),
    });
    if (labelIds) await setEpicLabels(tx, e.id, labelIds);
    // EventCreateService#close_epic / #reopen_epic, with the state change (the group's event, project_id null).
    if (closing || reopening)
      await recordEvent(tx, { action: closing ? 'closed' : 'reopened', authorId: userId, groupId: group.namespace.id, target: { type: 'Epic', id: e.id } });
    if (title !== undefined || input.description !== undefined)
      await epicMentionTodos(
        ctx,
        tx,
        group,
        {
          ...e,
          title: title ?? e.title,
          description: input.description !== undefined ? input.description : e.description,
          confidential: input.confidential ?? e.confidential,
        },
        userId,
        e,
      );
  });
  return { group, epic: (await q.findEpicView(ctx.db, group.namespace.id, e.iid))! };
}
