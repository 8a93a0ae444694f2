// NotificationRecipient#notifiable? and Builder::Default as a pure function: each level against each way of being a
// candidate, the excluded watcher events, reason priority, the actor and the read rule.
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../db/queries/notifications.ts';
import type { EmailEvent, UserRow } from '../../../db/schema/index.ts';
import { buildRecipients } from '../../../functions/notifications/recipients.ts';

let nextId = 1;
const candidate = (c: Partial<Omit<Candidate, 'user'>> & { state?: 'active' | 'blocked' } = {}): Candidate => ({
  user: { id: nextId++, state: c.state ?? 'active' } as UserRow,
  accessLevel: c.accessLevel ?? 30,
  sources: c.sources ?? [],
  level: c.level ?? 'participating',
  eventEnabled: c.eventEnabled ?? null,
  subscribed: c.subscribed ?? null,
});
const told = (action: EmailEvent, candidates: Candidate[], mayRead = (_: Candidate) => true) =>
  buildRecipients(candidates, { action, actorId: 0, mayRead }).map((d) => [candidates.findIndex((c) => c.user.id === d.user.id), d.reason]);

describe('buildRecipients', () => {
  it('levels against candidate kinds (close_merge_request)', () => {
    const cs = [
      candidate({ level: 'participating', sources: ['participant'] }),
      candidate({ level: 'participating', sources: ['member'] }),
      candidate({ level: 'watch', sources: ['member'] }),
      candidate({ level: 'mention', sources: ['participant'] }),
      candidate({ level: 'disabled', sources: ['participant', 'subscriber'] }),
      candidate({ level: 'custom', sources: ['member'], eventEnabled: true }),
      candidate({ level: 'custom', sources: ['member'], eventEnabled: false }),
      candidate({ level: 'custom', sources: ['participant'], eventEnabled: false }),
      candidate({ level: 'participating', sources: ['subscriber'] }),
    ];
    expect(told('close_merge_request', cs)).toEqual([
      [4, 'subscribed'],
      [8, 'subscribed'],
      [0, null],
      [2, null],
      [5, null],
      [7, null],
    ]);
  });

  it('watchers are not told of excluded events; a custom level is', () => {
    const cs = [candidate({ level: 'watch', sources: ['member'] }), candidate({ level: 'custom', sources: ['member'], eventEnabled: true })];
    expect(told('push_to_merge_request', cs)).toEqual([[1, null]]);
    expect(told('merge_merge_request', cs)).toEqual([
      [0, null],
      [1, null],
    ]);
  });

  it('an explicit unsubscribe beats all but a mention; the actor, blocked users and non-readers are never told', () => {
    const cs = [
      candidate({ level: 'watch', sources: ['participant'], subscribed: false }),
      candidate({ level: 'participating', sources: ['mentioned'], subscribed: false }),
      candidate({ level: 'watch', sources: ['member'], state: 'blocked' }),
      candidate({ level: 'watch', sources: ['member'], accessLevel: 10 }),
    ];
    const actor = candidate({ level: 'watch', sources: ['participant'] });
    expect(
      buildRecipients([...cs, actor], { action: 'new_issue', actorId: actor.user.id, mayRead: (c) => c.accessLevel >= 20 }).map((d) => [
        cs.indexOf(cs.find((c) => c.user.id === d.user.id)!),
        d.reason,
      ]),
    ).toEqual([[1, 'mentioned']]);
  });

  it('one message per user, with the reason of highest priority', () => {
    const cs = [candidate({ level: 'participating', sources: ['participant', 'assignee', 'mentioned', 'label_subscriber'] })];
    expect(told('new_merge_request', cs)).toEqual([[0, 'assigned']]);
    // A reassignment tells a mention-level previous assignee (as a mention) and names the new one "assigned".
    const reassign = [candidate({ level: 'mention', sources: ['previous_assignee'] }), candidate({ level: 'mention', sources: ['assignee', 'participant'] })];
    expect(told('reassign_issue', reassign)).toEqual([
      [1, 'assigned'],
      [0, null],
    ]);
  });
});
