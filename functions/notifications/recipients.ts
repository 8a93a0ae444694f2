// Who receives a notification-setting event: GitLab's NotificationRecipients::Builder::Default (build!) and
// NotificationRecipient#notifiable?, as a pure function of the candidates db/queries/notifications.ts reads.
import type { Candidate, CandidateSource } from '../../db/queries/notifications.ts';
import type { EmailEvent, NotificationReason } from '../../db/schema/index.ts';

/** One message: to whom, and why. */
export type Delivery = { user: Candidate['user']; reason: NotificationReason | null };
import { eventEnabled } from '../notification-settings/schemas.ts';

/** How a user came to be a recipient (NotificationRecipient's type: a level name, or a subscription). */
type RecipientType = 'participating' | 'watch' | 'custom' | 'mention' | 'subscription';
type Entry = { candidate: Candidate; type: RecipientType; reason: NotificationReason | null };

/** Watchers are not told of these (NotificationSetting::EXCLUDED_WATCHER_EVENTS); a custom setting decides for itself. */
const EXCLUDED_WATCHER_EVENTS = new Set<EmailEvent>(['push_to_merge_request', 'issue_due', 'success_pipeline']);
/** Events for which mentioned users, assignees and label subscribers are recipients too. */
const MENTION_TYPE_ACTIONS = new Set<EmailEvent>(['new_issue', 'new_merge_request', 'new_epic']);
const REASSIGN_ACTIONS = new Set<EmailEvent>(['reassign_issue', 'reassign_merge_request']);
/** NotificationReason.priority: the first reason a user has, in this order, is the one they are told. */
const REASON_PRIORITY: ReadonlyArray<NotificationReason | null> = ['own_activity', 'assigned', 'mentioned', 'subscribed', null];

/** Builder::Default#build!: the recipients each candidate is, by where it came from and its applying level. */
function entriesOf(action: EmailEvent, c: Candidate): Entry[] {
  const has = (s: CandidateSource) => c.sources.includes(s);
  const out: Entry[] = [];
  if (has('participant')) out.push({ candidate: c, type: 'participating', reason: null });
  if (c.level === 'watch') out.push({ candidate: c, type: 'watch', reason: null });
  if (c.level === 'custom') out.push({ candidate: c, type: 'custom', reason: null });
  // A reassignment is a mention of the previous and the new assignees.
  if (REASSIGN_ACTIONS.has(action)) {
    if (has('previous_assignee')) out.push({ candidate: c, type: 'mention', reason: null });
    if (has('assignee')) out.push({ candidate: c, type: 'mention', reason: 'assigned' });
  }
  if (has('subscriber')) out.push({ candidate: c, type: 'subscription', reason: 'subscribed' });
  if (MENTION_TYPE_ACTIONS.has(action)) {
    if (has('mentioned')) out.push({ candidate: c, type: 'mention', reason: 'mentioned' });
    if (has('assignee')) out.push({ candidate: c, type: 'participating', reason: 'assigned' });
    if (has('label_subscriber')) out.push({ candidate: c, type: 'subscription', reason: 'subscribed' });
  }
  return out;
}

/** NotificationRecipient#suitable_notification_level?. */
function suitableLevel(action: EmailEvent, e: Entry): boolean {
  const participatingOrMention = e.type === 'participating' || e.type === 'mention';
  switch (e.candidate.level) {
    case 'mention':
      return e.type === 'mention';
    case 'participating':
      return participatingOrMention;
    case 'custom':
      return eventEnabled(action, e.candidate.eventEnabled) || participatingOrMention;
    case 'watch':
      return !EXCLUDED_WATCHER_EVENTS.has(action);
    default:
      return false;
  }
}

export interface RecipientRules {
  action: EmailEvent;
  /** Who acted: never told of their own activity (notified_of_own_activity is off for everyone here). */
  actorId: number;
  /** Whether the candidate may read the target (the policy's read rule at their access level). */
  mayRead: (c: Candidate) => boolean;
}

/** NotificationRecipient#notifiable?, then one delivery per user with the reason of highest priority. */
export function buildRecipients(candidates: readonly Candidate[], rules: RecipientRules): Delivery[] {
  const access = new Map<number, boolean>();
  const mayRead = (c: Candidate) => {
    let ok = access.get(c.user.id);
    if (ok === undefined) access.set(c.user.id, (ok = c.user.state === 'active' && rules.mayRead(c)));
    return ok;
  };
  const notifiable = (e: Entry) => {
    if (!mayRead(e.candidate) || e.candidate.user.id === rules.actorId) return false;
    // Even a disabled level receives explicit subscriptions; an explicit unsubscribe beats all but a mention.
    if (e.type === 'subscription') return e.candidate.subscribed !== false;
    if (!suitableLevel(rules.action, e)) return false;
    return e.type === 'mention' || e.candidate.subscribed !== false;
  };
  const entries = candidates.flatMap((c) => entriesOf(rules.action, c)).filter(notifiable);
  entries.sort((a, b) => REASON_PRIORITY.indexOf(a.reason) - REASON_PRIORITY.indexOf(b.reason));
  const seen = new Set<number>();
  const out: Delivery[] = [];
  for (const e of entries) {
    if (seen.has(e.candidate.user.id)) continue;
    seen.add(e.candidate.user.id);
    out.push({ user: e.candidate.user, reason: e.reason });
  }
  return out;
}
