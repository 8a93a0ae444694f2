// A user's secondary emails (GitLab 13.6's /user/emails and /users/:id/emails with Emails::CreateService) and status
// (/user/status, /users/:id/status with Users::SetStatusService). There is no mail here: an email added by its
// owner stays unconfirmed (GitLab would mail a confirmation link); administrators may add it confirmed
// (skip_confirmation).
import * as q from '../../db/queries/users/profile.ts';
import { emailTaken } from '../../db/queries/users.ts';
import type { UserRow, UserStatusRow } from '../../db/schema/index.ts';
import { emojiInfo, isEmojiName } from '../award-emoji/emoji.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import { iso } from '../lib/format.ts';
import { EMAIL } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

export function listEmails({ ctx, input }: Verb<{ user: UserRow }>) {
  return {
    fetch: (limit: number, offset: number) => q.listEmails(ctx.db, input.user.id, limit, offset),
    count: (limit: number) => q.countEmails(ctx.db, input.user.id, limit),
  };
}

export async function getEmail({ ctx, input }: Verb<{ user: UserRow; id: number | null }>) {
  const row = input.id === null ? undefined : await q.findEmail(ctx.db, input.user.id, input.id);
  if (!row) throw notFound('Email');
  return row;
}

/** The Email model's validations (format; unique among every user's primary and secondary emails). */
export async function addEmail({ ctx, input }: Verb<{ user: UserRow; email: string; confirmed: boolean }>) {
  const email = input.email.trim();
  if (!email) throw validationFailed({ email: ["can't be blank"] });
  if (!EMAIL.test(email)) throw validationFailed({ email: ['is invalid'] });
  if (await emailTaken(ctx.db, email)) throw validationFailed({ email: ['has already been taken'] });
  const row = await q.insertEmail(ctx.db, input.user.id, email, input.confirmed);
  if (!row) throw validationFailed({ email: ['has already been taken'] });
  return row;
}

export async function removeEmail({ ctx, input }: Verb<{ user: UserRow; id: number | null }>) {
  if (input.id === null || !(await q.deleteEmail(ctx.db, input.user.id, input.id))) throw notFound('Email');
}

/** Entities::Email */
export const toEmail = (e: { id: number; email: string; confirmedAt: Date | null }) => ({
  id: e.id,
  email: e.email,
  confirmed_at: e.confirmedAt ? iso(e.confirmedAt) : null,
});

// ---- Status ----

export const STATUS_MESSAGE_MAX = 100;

export const getStatus = ({ ctx, input }: Verb<{ user: UserRow }>) => q.findStatus(ctx.db, input.user.id);

/**
 * Users::SetStatusService: both blank removes the status; a message without an emoji takes `speech_balloon`. The
 * model's validations: a known emoji, a message of at most 100 characters.
 */
export async function setStatus({ ctx, input }: Verb<{ user: UserRow; emoji?: string | undefined; message?: string | undefined }>) {
  const emoji = input.emoji?.trim() ?? '';
  const message = input.message ?? '';
  if (!emoji && !message.trim()) {
    await q.deleteStatus(ctx.db, input.user.id);
    return undefined;
  }
  const errors: Record<string, string[]> = {};
  if (emoji && !isEmojiName(emoji)) errors.emoji = ['is not included in the list'];
  if (message.length > STATUS_MESSAGE_MAX) errors.message = [`is too long (maximum is ${STATUS_MESSAGE_MAX} characters)`];
  if (Object.keys(errors).length) throw validationFailed(errors);
  return q.upsertStatus(ctx.db, input.user.id, emoji || 'speech_balloon', message || null);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Banzai's emoji pipeline on the message: the text escaped, each `:name:` of a known emoji as a gl-emoji element. */
export function statusMessageHtml(message: string): string {
  return escapeHtml(message).replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => {
    const info = emojiInfo(name);
    if (!info) return whole;
    return `<gl-emoji title="${escapeHtml(info.description)}" data-name="${name}" data-unicode-version="${info.unicodeVersion}">${info.emoji}</gl-emoji>`;
  });
}

/** Entities::UserStatus (all null without a status). */
export const toUserStatus = (s: UserStatusRow | undefined) => ({
  emoji: s?.emoji ?? null,
  message: s?.message ?? null,
  message_html: s?.message ? statusMessageHtml(s.message) : null,
});

// ---- Activities ----

/** GET /user/activities (administrators): users active since `from` (six months ago by default). */
export function listActivities({ ctx, input }: Verb<{ from?: Date | undefined }>) {
  const from = (input.from ?? new Date(Date.now() - 182 * 86_400_000)).toISOString().slice(0, 10);
  return {
    fetch: (limit: number, offset: number) => q.listActivities(ctx.db, from, limit, offset),
    count: (limit: number) => q.countActivities(ctx.db, from, limit),
  };
}

/** Entities::UserActivity */
export const toUserActivity = (a: { username: string; lastActivityOn: string | null }) => ({
  username: a.username,
  last_activity_on: a.lastActivityOn,
  last_activity_at: a.lastActivityOn,
});
