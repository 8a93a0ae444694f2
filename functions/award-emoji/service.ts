// Award emoji verbs (GitLab's lib/api/award_emoji.rb with AwardEmojis::{Add,Destroy}Service, 13.x). The awardable
// (an issue, a project snippet, or a note on either) is found through its own domain's finder, which decides whether
// it is readable; reading awards needs nothing more, awarding needs the policy's 'awardable:award', and removing one
// is for its awarder or an administrator. GitLab records no event for awards. GraphQL finds the awardable by global
// id (findAwardableById) and adds, removes or toggles by name through the same rules.
import * as q from '../../db/queries/award-emoji.ts';
import { findSnippetProjectId } from '../snippets/lookups.ts';
import { findIssue, findIssueById, issueFacts } from '../issues/service.ts';
import { findMergeRequest, findMergeRequestById, mergeRequestFacts } from '../merge-requests/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { isDomainError, isUniqueViolation, notFound, recordNotFound, unauthorized, validationFailed } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT } from '../lib/pagination.ts';
import { can, type AwardableFacts } from '../lib/policy.ts';
import { epicsByIds, groupEpicByIid } from '../epics/reads.ts';
import { findGroup } from '../groups/service.ts';
import { epicNoteable, findNote, findNoteById, findNoteOn, type NoteableRef } from '../notes/service.ts';
import { projectFacts } from '../projects/service.ts';
import { findProjectSnippet, findSnippet, snippetFacts } from '../snippets/service.ts';
import { isEmojiName, normalizeEmojiName } from './emoji.ts';
import type { Output } from '../lib/validate.ts';
import type { CreateAwardInput } from './schemas.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** `/projects/:id/issues/:issue_iid`, `/projects/:id/snippets/:snippet_id`, or a note on either. */
export type AwardableRef =
  | { kind: 'issue'; project: Ref | null; iid: number | null }
  | { kind: 'merge_request'; project: Ref | null; iid: number | null }
  | { kind: 'snippet'; project: Ref | null; id: number | null }
  | { kind: 'note'; noteable: NoteableRef; noteId: number | null }
  /** `/groups/:id/epics/:epic_iid` (13.6 EE: epics are found by iid here, unlike the notes API) and its notes. */
  | { kind: 'epic'; group: Ref | null; iid: number | null }
  | { kind: 'epic_note'; group: Ref | null; iid: number | null; noteId: number | null };

export interface Awardable {
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
    case 'merge_request': {
      // `user_project.merge_requests.find_by!(iid:)` (404 `Not found`), then `not_found!('Award Emoji')` unless
      // can_read_awardable?.
      const { project, view } = await findMergeRequest(ctx, { project: ref.project, iid: ref.iid }).catch((e) => {
        if (isDomainError(e, 'forbidden')) throw awardNotFound();
        throw e;
      });
      return { key: { type: 'MergeRequest', id: view.mr.id }, facts: mergeRequestFacts(project, view) };
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
    case 'epic': {
      const noteable = await findEpic(ctx, ref.group, ref.iid);
      if (!can(ctx.actor, 'epic:read', noteable.facts)) throw awardNotFound();
      return { key: { type: 'Epic', id: noteable.epic.view.epic.id }, facts: noteable.facts };
    }
    case 'epic_note': {
      const { view, facts } = await findNoteOn(ctx, await findEpic(ctx, ref.group, ref.iid), ref.noteId);
      if (!can(ctx.actor, 'note:read', facts)) throw awardNotFound();
      return { key: { type: 'Note', id: view.note.id }, facts };
    }
  }
}

/**
 * EE's awardable for `epic_iid`: `user_group` (404 `Group Not Found`), then the group's own epic by iid (404 `Not
 * found` when none); whether it may be read (license included) is the caller's check, answered `Award Emoji Not Found`.
 */
async function findEpic(ctx: RequestContext, ref: Ref | null, iid: number | null) {
  const group = await findGroup(ctx, ref);
  const model = await groupEpicByIid(ctx, group, iid);
  if (!model) throw recordNotFound();
  return epicNoteable(ctx, model);
}

/**
 * The readable awardable by model name and database id (GraphQL's AwardableID): an issue, a note (on an issue or a
 * project snippet) or a snippet; 404 when missing or unreadable.
 */
export async function findAwardableById(ctx: RequestContext, gid: { type: string; id: number }): Promise<Awardable> {
  switch (gid.type) {
    case 'Issue': {
      const { project, view } = await findIssueById(ctx, gid.id);
      return { key: { type: 'Issue', id: view.issue.id }, facts: issueFacts(project, view) };
    }
    case 'MergeRequest': {
      const { project, view } = await findMergeRequestById(ctx, gid.id).catch((e) => {
        if (isDomainError(e, 'forbidden')) throw awardNotFound();
        throw e;
      });
      return { key: { type: 'MergeRequest', id: view.mr.id }, facts: mergeRequestFacts(project, view) };
    }
    case 'Epic': {
      const [model] = await epicsByIds(ctx, [gid.id]);
      if (!model) throw awardNotFound();
      return { key: { type: 'Epic', id: model.view.epic.id }, facts: epicNoteable(ctx, model).facts };
    }
    case 'Note':
    case 'DiscussionNote':
    case 'DiffNote': {
      const { view, facts } = await findNoteById(ctx, gid.id);
      return { key: { type: 'Note', id: view.note.id }, facts };
    }
    case 'Snippet':
    case 'ProjectSnippet':
    case 'PersonalSnippet': {
      const projectId = await findSnippetProjectId(ctx.db, gid.id);
      if (projectId === undefined) throw notFound('Snippet');
      if (projectId === null) {
        const snippet = await findSnippet(ctx, gid.id);
        return { key: { type: 'Snippet', id: snippet.snippet.id }, facts: snippetFacts(snippet.snippet, null) };
      }
      return findAwardable(ctx, { kind: 'snippet', project: { id: projectId }, id: gid.id });
    }
    default:
      throw awardNotFound();
  }
}

/** GitLab's emoji_awardable?: everything that carries awards except system notes. */
export const isEmojiAwardable = (awardable: Awardable) => !(awardable.facts.kind === 'note' && awardable.facts.system);

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
export async function createAward({ ctx, input }: Verb<{ awardable: AwardableRef; params: Output<typeof CreateAwardInput> }>) {
  const awardable = await findAwardable(ctx, input.awardable);
  return award(ctx, awardable, input.params.name, () => notFound('Award Emoji Name has already been taken'));
}

/** AwardEmojis::AddService: who may not award is told 404; the name must be an emoji; one award per name and user. */
async function award(ctx: RequestContext, awardable: Awardable, name: string, duplicate: () => Error) {
  const user = requireUser(ctx);
  if (!can(ctx.actor, 'awardable:award', awardable.facts)) throw awardNotFound();
  if (!isEmojiName(name)) throw invalidName();
  try {
    const award = await q.insertAward(ctx.db, { awardable: awardable.key, userId: user.id, name: normalizeEmojiName(name) });
    return { award, user };
  } catch (error) {
    if (isUniqueViolation(error, q.AWARD_UNIQUE)) throw duplicate();
    throw error;
  }
}

/** GraphQL's awardEmojiAdd on a found awardable: a duplicate is the model's error (`Name has already been taken`). */
export const addAward = ({ ctx, input }: Verb<{ awardable: Awardable; name: string }>) =>
  award(ctx, input.awardable, input.name, () => validationFailed({ name: ['has already been taken'] }));

/**
 * GraphQL's awardEmojiRemove (AwardEmojis::DestroyService): the caller's own award of that name, which needs the
 * right to award; none is the service's error.
 */
export async function removeAward({ ctx, input }: Verb<{ awardable: Awardable; name: string }>) {
  const user = requireUser(ctx);
  if (!can(ctx.actor, 'awardable:award', input.awardable.facts)) throw awardNotFound();
  const name = normalizeEmojiName(input.name);
  const found = await q.findUserAward(ctx.db, input.awardable.key, user.id, name);
  if (!found) throw validationFailed({ base: [`User has not awarded emoji of type ${name} on the awardable`] });
  if (!can(ctx.actor, 'award:delete', found.award)) throw unauthorized();
  await q.deleteAward(ctx.db, found.award.id);
}

/** AwardEmojis::ToggleService: removes the caller's award of that name, or adds it; `toggledOn` says which. */
export async function toggleAward({ ctx, input }: Verb<{ awardable: Awardable; name: string }>) {
  const user = requireUser(ctx);
  const existing = await q.findUserAward(ctx.db, input.awardable.key, user.id, normalizeEmojiName(input.name));
  if (existing) {
    await removeAward({ ctx, input });
    return { toggledOn: false as const, award: null };
  }
  const added = await addAward({ ctx, input });
  return { toggledOn: true as const, award: added };
}

/** DELETE .../award_emoji/:award_id: the awarder or an administrator; anyone else gets 401, as GitLab answers. */
export async function deleteAward({ ctx, input }: Verb<{ awardable: AwardableRef; awardId: number | null }>) {
  requireUser(ctx);
  const awardable = await findAwardable(ctx, input.awardable);
  const { award } = await findAward(ctx, awardable, input.awardId);
  if (!can(ctx.actor, 'award:delete', award)) throw unauthorized();
  await q.deleteAward(ctx.db, award.id);
}
