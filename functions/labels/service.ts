// Label verbs for projects and groups (lib/api/helpers/label_helpers.rb, Labels::CreateService/UpdateService, the
// Label model's validations). Every endpoint wants a signed-in user (GitLab's `before { authenticate! }`); reads
// need the source to be visible, changes need admin_labels (reporters and above).
import * as q from '../../db/queries/labels.ts';
import * as qListing from '../../db/queries/labels/listing.ts';
import type { LabelSubscriber } from '../../db/queries/notifications/label-subscriptions.ts';
import { setLabelSubscription } from '../notifications/statements.ts';
import * as qWrites from '../../db/queries/labels/writes.ts';
import type { LabelRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { requireUser } from '../lib/auth.ts';
import { conflict, isUniqueViolation, notFound, notModified, validationFailed } from '../lib/errors.ts';
import { assertCanOnSource, loadSource, type Source, type SourceInput } from '../sources/service.ts';
import { isValidColor, normalizeColor } from './colors.ts';

type Verb<I> = { ctx: RequestContext; input: SourceInput & I };

/** The source's own labels only. */
const own = (s: Source): q.LabelScope =>
  s.kind === 'project' ? { kind: 'project', projectId: s.id, groupIds: [] } : { kind: 'group', groupId: s.id, groupIds: [] };

/** With the labels of its ancestor groups, which it sees (unless `include` is false). */
const withAncestors = (s: Source, include: boolean | undefined): q.LabelScope => ({ ...own(s), groupIds: include === false ? [] : s.ancestorGroupIds });

const labelNotFound = () => notFound('Label');

/** Who asks, at the level a subscription through the source is kept at: the project, or (a group) none. */
const subscriber = (ctx: RequestContext, s: Source): LabelSubscriber => ({ userId: requireUser(ctx).id, projectId: s.kind === 'project' ? s.id : null });

export async function listLabels({
  ctx,
  input,
}: Verb<{ withCounts?: boolean | undefined; includeAncestorGroups?: boolean | undefined; search?: string | undefined }>) {
  const source = await loadSource(ctx, input);
  const scope = withAncestors(source, input.includeAncestorGroups);
  const filter = { search: input.search || undefined };
  return {
    fetch: (limit: number, offset: number) =>
      qListing.listLabels(ctx.db, ctx.actor, scope, filter, input.withCounts === true, limit, offset, subscriber(ctx, source)),
    count: (limit: number) => qListing.countLabels(ctx.db, scope, filter, limit),
  };
}

export async function getLabel({ ctx, input }: Verb<{ labelRef: string; includeAncestorGroups?: boolean | undefined }>) {
  const source = await loadSource(ctx, input);
  const found = await q.findLabelWithSubscription(ctx.db, withAncestors(source, input.includeAncestorGroups), input.labelRef, subscriber(ctx, source));
  if (!found) throw labelNotFound();
  return found;
}

/**
 * POST .../labels/:label_id/subscribe and /unsubscribe (lib/api/subscriptions.rb over Label): the label (id or title,
 * the source's own or an ancestor group's) with the caller's new `subscribed`; 304 (thrown) when it already was so.
 * Anyone who may read the source may subscribe.
 */
export async function setLabelSubscribed({ ctx, input }: Verb<{ labelRef: string; subscribed: boolean }>): Promise<qListing.LabelWithCounts> {
  const source = await loadSource(ctx, input);
  const who = subscriber(ctx, source);
  const found = await q.findLabelWithSubscription(ctx.db, withAncestors(source, true), input.labelRef, who);
  if (!found) throw labelNotFound();
  if (found.subscribed === input.subscribed) throw notModified();
  await setLabelSubscription(ctx.db, found.label.id, who.userId, who.projectId, input.subscribed);
  return { label: found.label, subscribed: input.subscribed };
}

/** The Label model's title rules (stripped; present; no commas; at most 255 characters). */
function titleErrors(title: string): string[] {
  if (title === '') return ["can't be blank", 'is invalid'];
  const errors: string[] = [];
  if (title.includes(',')) errors.push('is invalid');
  if (title.length > 255) errors.push('is too long (maximum is 255 characters)');
  return errors;
}

function priorityErrors(priority: number | null | undefined): string[] {
  return priority != null && priority < 0 ? ['must be greater than or equal to 0'] : [];
}

export async function createLabel({
  ctx,
  input,
}: Verb<{ name: string; color: string; description?: string | null | undefined; priority?: number | null | undefined }>): Promise<LabelRow> {
  const source = await loadSource(ctx, input);
  assertCanOnSource(ctx, 'admin_labels', source.facts);
  const scope = withAncestors(source, true);
  const title = input.name.trim();
  const color = normalizeColor(input.color);
  const errors: Record<string, string[]> = {};
  const t = titleErrors(title);
  if (t.length) errors.title = t;
  if (!isValidColor(color)) errors.color = ['must be a valid color code'];
  const p = input.kind === 'project' ? priorityErrors(input.priority) : [];
  if (p.length) errors.priority = p;
  if (Object.keys(errors).length) {
    // GitLab looks for an existing label with the name before it validates anything.
    if (await q.findLabel(ctx.db, scope, input.name)) throw conflict('Label already exists');
    throw validationFailed(errors);
  }
  const label = await qWrites
    .insertLabel(ctx.db, scope, { title, color, description: input.description ?? null, priority: input.kind === 'project' ? (input.priority ?? null) : null })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    });
  if (!label) throw conflict('Label already exists');
  return label;
}

export async function updateLabel({
  ctx,
  input,
}: Verb<{
  labelRef: string;
  new_name?: string | undefined;
  color?: string | undefined;
  description?: string | null | undefined;
  priority?: number | null | undefined;
}>): Promise<LabelRow> {
  const source = await loadSource(ctx, input);
  assertCanOnSource(ctx, 'admin_labels', source.facts);
  // Label#title= ignores blank values: an empty new_name changes nothing.
  const title = input.new_name?.trim() || undefined;
  const found = await q.findLabelForUpdate(
    ctx.db,
    own(source),
    input.labelRef,
    title && input.kind === 'project' ? { title, groupIds: source.ancestorGroupIds } : undefined,
  );
  if (!found) throw labelNotFound();
  const changes: Parameters<typeof qWrites.updateLabel>[2] = {};
  const errors: Record<string, string[]> = {};
  if (title !== undefined && title !== found.label.title) {
    const t = titleErrors(title);
    if (found.groupWithTitle !== null) t.push(`already exists at group level for ${found.groupWithTitle}. Please choose another one.`);
    if (t.length) errors.title = t;
    changes.title = title;
  }
  if (input.color !== undefined) {
    changes.color = normalizeColor(input.color);
    if (!isValidColor(changes.color)) errors.color = ['must be a valid color code'];
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.kind === 'project' && input.priority !== undefined) {
    const p = priorityErrors(input.priority);
    if (p.length) errors.priority = p;
    changes.priority = input.priority;
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  let label: LabelRow | undefined;
  try {
    label = await qWrites.updateLabel(ctx.db, found.label.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw validationFailed({ title: ['has already been taken'] });
    throw error;
  }
  // Deleted meanwhile.
  if (!label) throw labelNotFound();
  return label;
}

export async function deleteLabel({ ctx, input }: Verb<{ labelRef: string }>) {
  const source = await loadSource(ctx, input);
  assertCanOnSource(ctx, 'admin_labels', source.facts);
  const label = await q.findLabel(ctx.db, own(source), input.labelRef);
  if (!label || !(await qWrites.deleteLabel(ctx.db, label.id))) throw labelNotFound();
}
