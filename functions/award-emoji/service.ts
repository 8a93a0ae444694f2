// Award emoji verbs (GitLab's lib/api/award_emoji.rb with AwardEmojis::{Add,Destroy}Service, 13.x). The awardable
// (an issue, a project snippet, or a note on either) is found through its own domain's finder, which decides whether
// it is readable; reading awards needs nothing more, awarding needs the policy's 'awardable:award', and removing one
// is for its awarder or an administrator. GitLab records no event for awards.
import * as q from '../../db/queries/award-emoji.ts';
import { findIssue, issueFacts } from '../issues/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isUniqueViolation, notFound, recordNotFound, unauthorized, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { can, type AwardableFacts } from '../lib/policy.ts';
import type * as z from 'zod/mini';
import { findNote, type NoteableRef } from '../notes/service.ts';
import { projectFacts } from '../projects/service.ts';
import { findProjectSnippet, snippetFacts } from '../snippets/service.ts';
import { isEmojiName, normalizeEmojiName } from './emoji.ts';
import type { CreateAwardInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** `/projects/:id/issues/:issue_iid`, `/projects/:id/snippets/:snippet_id`, or a note on either. */
export type AwardableRef =
  | { kind: 'issue'; project: Ref | null; iid: number | null }
  | { kind: 'snippet'; project: Ref | null; id: number | null }
  | { kind: 'note'; noteable: NoteableRef; noteId: number | null };

interface Awardable {
  key: q.AwardableKey;
  facts: AwardableFacts;
}

const awardNotFound = () => notFound('Award Emoji');

/**
 * The readable awardable: 404 `Issue Not Found` / `Snippet Not Found` (or `Project Not Found`) from its finder; for a
 * note, 404 `Not found` when it is not on that noteable and 404 `Award Emoji Not Found` when it is unreadable.
 */
async function findAwardable(ctx: RequestContext, ref: AwardableRef): Promise<Awardable> {
  switch (ref.kind) {
    case 'issue': {
      const { project, view } = await findIssue(ctx, { project: ref.project, iid: ref.iid });
      return { key: { type: 'Issue', id: view.issue.id }, facts: issueFacts(project, view) };
    }
    case 'snippet': {
      const { project, snippet } = await findProjectSnippet(ctx, ref.project, ref.id);
      return { key: { type: 'Snippet', id: snippet.snippet.id }, facts: snippetFacts(snippet.snippet, projectFacts(project)) };
    }
    case 'note': {
      const { view, facts } = await findNote(ctx, ref.noteable, ref.noteId);
      if (!can(ctx.actor, 'note:read', facts)) throw awardNotFound();
      return { key: { type: 'Note', id: view.note.id }, facts };
    }
  }
}

/** One award of the awardable: 404 `Not found` when missing or on something else (`award_emoji.find`). */
async function findAward(ctx: RequestContext, awardable: Awardable, awardId: number | null) {
  const award = awardId === null ? undefined : await q.findAward(ctx.db, awardable.key, awardId);
  if (!award) throw recordNotFound();
  return award;
}

/** GET .../award_emoji: the awards, oldest first, each with its user (one statement per page). */
export async function listAwards({ ctx, input }: Verb<{ awardable: AwardableRef }>) {
  const awardable = await findAwardable(ctx, input.awardable);
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await q.listAwards(ctx.db, awardable.key, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = rows[0].total ?? 0;
      return rows;
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : q.countAwards(ctx.db, awardable.key, limit)),
  };
}

export async function getAward({ ctx, input }: Verb<{ awardable: AwardableRef; awardId: number | null }>) {
  return findAward(ctx, await findAwardable(ctx, input.awardable), input.awardId);
}

/** AwardEmoji's name rule, in the model's words: a known emoji name (no whitespace or control characters in any). */
const invalidName = () => validationFailed({ name: ['is not a valid emoji name'] });

/**
 * POST .../award_emoji. Who may not award is told 404 `Award Emoji Not Found`, as GitLab does; a second award of the
 * same name by the same user is refused by the table's unique constraint (so concurrent requests make one row), with
 * GitLab's `404 Award Emoji Name has already been taken Not Found`.
 */
export async function createAward({ ctx, input }: Verb<{ awardable: AwardableRef; params: z.output<typeof CreateAwardInput> }>) {
  const user = requireUser(ctx);
  const awardable = await findAwardable(ctx, input.awardable);
  if (!can(ctx.actor, 'awardable:award', awardable.facts)) throw awardNotFound();
  const name = input.params.name;
  if (!isEmojiName(name)) throw invalidName();
  try {
    const award = await q.insertAward(ctx.db, { awardable: awardable.key, userId: user.id, name: normalizeEmojiName(name) });
    return { award, user };
  } catch (error) {
    if (isUniqueViolation(error, q.AWARD_UNIQUE)) throw notFound('Award Emoji Name has already been taken');
    throw error;
  }
}

/** DELETE .../award_emoji/:award_id: the awarder or an administrator; anyone else gets 401, as GitLab answers. */
export async function deleteAward({ ctx, input }: Verb<{ awardable: AwardableRef; awardId: number | null }>) {
  requireUser(ctx);
  const awardable = await findAwardable(ctx, input.awardable);
  const { award } = await findAward(ctx, awardable, input.awardId);
  if (!can(ctx.actor, 'award:delete', award)) throw unauthorized();
  await q.deleteAward(ctx.db, award.id);
}
