// Broadcast messages (GitLab 13.6's broadcast_messages.rb and BroadcastMessage): anyone reads them; administrators
// create, change and delete them. The model's validations run on the message as it would be saved.
import * as q from '../../db/queries/broadcast-messages.ts';
import type { BroadcastMessageRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { recordNotFound, validationFailed } from '../lib/errors.ts';
import { iso } from '../lib/format.ts';
import { requireAdmin } from '../users/service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export interface MessageFields {
  message?: string | undefined;
  starts_at?: Date | undefined;
  ends_at?: Date | undefined;
  color?: string | undefined;
  font?: string | undefined;
  target_path?: string | undefined;
  broadcast_type?: 'banner' | 'notification' | undefined;
  dismissable?: boolean | undefined;
}

/** BroadcastMessage's defaults (default_value_for). */
const DEFAULT_COLOR = '#E75E40';
const DEFAULT_FONT = '#FFFFFF';
/** ColorValidator: `#` and 3 or 6 hex digits. */
const COLOR = /^#([0-9a-f]{3}){1,2}$/i;

function validate(m: { message: string; color: string | null; font: string | null; startsAt: Date; endsAt: Date }) {
  const errors: Record<string, string[]> = {};
  if (!m.message.trim()) errors.message = ["can't be blank"];
  if (m.color && !COLOR.test(m.color)) errors.color = ['must be a valid color code'];
  if (m.font && !COLOR.test(m.font)) errors.font = ['must be a valid color code'];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

export const listMessages = ({ ctx }: Verb<object>) => ({
  fetch: (limit: number, offset: number) => q.listBroadcastMessages(ctx.db, limit, offset),
  count: (limit: number) => q.countBroadcastMessages(ctx.db, limit),
});

export async function getMessage({ ctx, input }: Verb<{ id: number | null }>) {
  const row = input.id === null ? undefined : await q.findBroadcastMessage(ctx.db, input.id);
  if (!row) throw recordNotFound();
  return row;
}

export async function createMessage({ ctx, input }: Verb<MessageFields & { message: string }>) {
  requireAdmin(ctx);
  const now = Date.now();
  const values = {
    message: input.message,
    startsAt: input.starts_at ?? new Date(now),
    endsAt: input.ends_at ?? new Date(now + 3_600_000),
    color: input.color ?? DEFAULT_COLOR,
    font: input.font ?? DEFAULT_FONT,
    targetPath: input.target_path ?? null,
    broadcastType: input.broadcast_type ?? 'banner',
    dismissable: input.dismissable ?? null,
  };
  validate(values);
  return q.insertBroadcastMessage(ctx.db, values);
}

export async function updateMessage({ ctx, input }: Verb<MessageFields & { id: number | null }>) {
  requireAdmin(ctx);
  const current = await getMessage({ ctx, input });
  const changes = {
    ...(input.message !== undefined ? { message: input.message } : {}),
    ...(input.starts_at !== undefined ? { startsAt: input.starts_at } : {}),
    ...(input.ends_at !== undefined ? { endsAt: input.ends_at } : {}),
    ...(input.color !== undefined ? { color: input.color } : {}),
    ...(input.font !== undefined ? { font: input.font } : {}),
    ...(input.target_path !== undefined ? { targetPath: input.target_path } : {}),
    ...(input.broadcast_type !== undefined ? { broadcastType: input.broadcast_type } : {}),
    ...(input.dismissable !== undefined ? { dismissable: input.dismissable } : {}),
  };
  validate({ ...current, ...changes });
  const row = await q.updateBroadcastMessage(ctx.db, current.id, changes);
  if (!row) throw recordNotFound();
  return row;
}

export async function deleteMessage({ ctx, input }: Verb<{ id: number | null }>) {
  requireAdmin(ctx);
  if (input.id === null || !(await q.deleteBroadcastMessage(ctx.db, input.id))) throw recordNotFound();
}

/** Entities::BroadcastMessage; `active` is BroadcastMessage#active? (started and not ended). */
export const toBroadcastMessage = (m: BroadcastMessageRow, now = Date.now()) => ({
  id: m.id,
  message: m.message,
  starts_at: iso(m.startsAt),
  ends_at: iso(m.endsAt),
  color: m.color,
  font: m.font,
  target_path: m.targetPath,
  broadcast_type: m.broadcastType,
  dismissable: m.dismissable,
  active: m.startsAt.getTime() <= now && m.endsAt.getTime() > now,
});
