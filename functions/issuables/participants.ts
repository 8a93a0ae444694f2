// Participable (GitLab's concern shared by issues, merge requests and epics): which of an issuable's participants the
// actor may see.
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { can, type NoteableFacts } from '../lib/policy.ts';

/**
 * Of the participant rows of one issuable (findParticipants, for an issue or a merge request; findParticipantsOfEpics), in order: each
 * user once, a note's author only when the actor may read that note, and only users the actor may see.
 */
export function visibleParticipants(
  ctx: RequestContext,
  rows: ReadonlyArray<{ user: UserRow; note: { authorId: number; confidential: boolean } | null }>,
  noteable: NoteableFacts,
): UserRow[] {
  const seen = new Set<number>();
  const users: UserRow[] = [];
  for (const r of rows) {
    if (seen.has(r.user.id)) continue;
    if (r.note && !can(ctx.actor, 'note:read', { kind: 'note', noteable, authorId: r.note.authorId, system: false, confidential: r.note.confidential }))
      continue;
    if (!can(ctx.actor, 'user:read', { kind: 'user', id: r.user.id, state: r.user.state, privateProfile: r.user.privateProfile })) continue;
    seen.add(r.user.id);
    users.push(r.user);
  }
  return users;
}
