// Delivering the outbox (db/schema/notifications.ts): the `mailers` background job (functions/background-jobs; the
// cron tick enqueues one unless one waits). The outbox itself is the per-event queue, claimed with SKIP LOCKED: an
// event costs its request one row and is sent at most once, where a job per event would double every notifying
// write and make a retried job send its mail twice. Each pending event's recipients are resolved now, through each
// user's applying level (recipients.ts), as GitLab's NotificationService resolves them in its Sidekiq workers after
// the request; then each message goes to the mail transport and the event keeps who it went to. The mail transport
// is the log: one JSON line per message with the recipient, GitLab's subject and the X-GitLab-NotificationReason (as
// GitLab's development setup hands mail to letter_opener); an SMTP or Email Workers transport would take the same
// messages. An event is marked delivered by the statement that claims it, so a crash after the claim loses its
// messages rather than sending them twice.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { usersWithProjectLevels } from '../issuables/lookups.ts';
import {
  claimNotifications,
  deleteDeliveredBefore,
  emailsDisabled,
  findNotificationCandidates,
  recordRecipients,
  type CandidateSource,
} from '../../db/queries/notifications.ts';
import type { EmailEvent, NotificationRow } from '../../db/schema/index.ts';
import { freshMentions } from '../issuables/mention-todos.ts';
import type { RequestContext } from '../lib/context.ts';
import { log } from '../lib/log.ts';
import { buildRecipients, type Delivery } from './recipients.ts';
import { loadTarget, type NotificationTarget } from './targets.ts';

/** Events per claim. */
export const DELIVERY_BATCH = 100;
/** Delivered events are kept a week (for an operator asking what was sent), then deleted. */
export const DELIVERED_RETENTION = sql`now() - interval '7 days'`;

/** Events for which mentioned users, assignees and label subscribers are candidates (Builder::Default's "new" action). */
const NEW_ACTIONS = new Set<EmailEvent>(['new_issue', 'new_merge_request', 'new_epic']);

/** The subject GitLab's mailers give: `project | title (#iid)` or `(!iid)`; an epic's `group | title (&iid)`. */
export const subjectOf = (t: Pick<NotificationTarget, 'sourceName' | 'title' | 'reference'>) => `${t.sourceName} | ${t.title} (${t.reference})`;

/** Who is told of one event, as the target and the settings stand now. */
export async function recipientsOf(db: Db, n: NotificationRow, target: NotificationTarget): Promise<Delivery[]> {
  // NotificationService sends nothing for a project (or group) whose emails are disabled, there or above.
  if (await emailsDisabled(db, target.source)) return [];
  const given: Array<{ userId: number; source: CandidateSource }> = [];
  if (NEW_ACTIONS.has(n.action)) {
    const fresh = freshMentions(target.texts);
    // A group-level target has no project: id 0 names none, so levels come from its groups alone.
    const mentioned = await usersWithProjectLevels(db, { id: target.source.projectId ?? 0, traversalIds: target.source.traversalIds }, fresh.names);
    given.push(...mentioned.map((m) => ({ userId: m.user.id, source: 'mentioned' as const })));
  }
  if (NEW_ACTIONS.has(n.action) || n.action === 'reassign_issue' || n.action === 'reassign_merge_request') {
    given.push(...target.assigneeIds.map((id) => ({ userId: id, source: 'assignee' as const })));
  }
  given.push(...n.previousAssigneeIds.map((id) => ({ userId: id, source: 'previous_assignee' as const })));
  const candidates = await findNotificationCandidates(db, {
    project: { id: target.source.projectId, traversalIds: target.source.traversalIds },
    action: n.action,
    target: { type: n.targetType, id: n.targetId },
    given,
    labelIds: NEW_ACTIONS.has(n.action) ? target.labelIds : [],
  });
  return buildRecipients(candidates, { action: n.action, actorId: n.actorId ?? 0, mayRead: (c) => target.mayRead(c.user, c.accessLevel) });
}

export interface DeliveryResult {
  /** Events taken. */
  events: number;
  /** Messages sent. */
  messages: number;
  /** Delivered events past the retention, deleted. */
  purged: number;
}

export async function deliverNotifications({ ctx }: { ctx: Pick<RequestContext, 'db'> }, batch = DELIVERY_BATCH): Promise<DeliveryResult> {
  let events = 0;
  let messages = 0;
  for (;;) {
    const claimed = await claimNotifications(ctx.db, batch);
    for (const n of claimed) {
      // A target deleted since (or in a deleted project) is told to nobody.
      const target = await loadTarget(ctx.db, n.targetType, n.targetId);
      const deliveries = target ? await recipientsOf(ctx.db, n, target) : [];
      for (const d of deliveries) {
        log('info', 'notification email', {
          to: d.user.notificationEmail ?? d.user.email,
          subject: subjectOf(target!),
          action: n.action,
          reason: d.reason ?? undefined,
          user_id: d.user.id,
        });
      }
      await recordRecipients(
        ctx.db,
        n.id,
        deliveries.map((d) => ({ user_id: d.user.id, reason: d.reason })),
      );
      messages += deliveries.length;
    }
    events += claimed.length;
    if (claimed.length < batch) break;
  }
  let purged = 0;
  for (let n = batch; n === batch; purged += n) n = await deleteDeliveredBefore(ctx.db, DELIVERED_RETENTION, batch);
  return { events, messages, purged };
}
