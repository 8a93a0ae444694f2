// Event listings (GitLab's API::Events, API::ProjectEvents and EventsFinder): which events a caller sees, decided in
// two steps as GitLab does: events of projects (or groups) the caller cannot read, and epics' events, are filtered in SQL, so they are
// never returned nor counted; after pagination each event is checked against its target (confidential issues and
// their notes), so a page may hold fewer than per_page events while X-Total still counts them.
import * as q from '../../db/queries/events/listing.ts';
import { EVENT_ACTIONS } from '../../db/schema/index.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { notFound } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { COUNT_LIMIT, pageRequest } from '../lib/pagination.ts';
import { assertCan, can, type IssueFacts, type MergeRequestFacts, type NoteableFacts, type ProjectFacts, type ProjectSnippetFacts } from '../lib/policy.ts';
import { TARGET_TYPE_FILTERS, type ListEventsParams } from './schemas.ts';

export type EventListing = { kind: 'own'; scope?: string | undefined } | { kind: 'user'; ref: Ref | null } | { kind: 'project'; ref: Ref | null };

export interface EventList {
  keyset: boolean;
  sort: 'asc' | 'desc';
  perPage: number;
  fetch(limit: number, offset: number): Promise<q.EventListRow[]>;
  count(limit: number): Promise<number>;
}

function sourceOf(ctx: RequestContext, listing: EventListing): q.EventSource | null {
  switch (listing.kind) {
    case 'own': {
      const user = requireUser(ctx);
      return listing.scope === 'all' ? { kind: 'authorized', userId: user.id } : { kind: 'author', userId: user.id };
    }
    case 'user':
      return listing.ref ? { kind: 'user', ref: listing.ref.id ?? listing.ref.path! } : null;
    case 'project':
      return listing.ref ? { kind: 'project', ref: listing.ref } : null;
  }
}

/**
 * The listing as fetch/count for lib/pagination.ts: one statement per page (head, page, and the capped total when
 * pagination will ask for it), so `count` answers from what `fetch` loaded.
 */
export function listEvents({ ctx, input }: { ctx: RequestContext; input: { listing: EventListing; params: ListEventsParams } }): EventList {
  const { listing, params } = input;
  const source = sourceOf(ctx, listing);
  const keyset = params.pagination === 'keyset';
  const sort = params.sort ?? 'desc';
  const { perPage } = pageRequest(params);
  const filter: q.EventFilter = {
    action: params.action ? EVENT_ACTIONS[params.action] : undefined,
    targetType: params.target_type ? TARGET_TYPE_FILTERS[params.target_type] : undefined,
    before: params.before,
    after: params.after,
    sort,
    idAfter: params.id_after,
    idBefore: params.id_before,
  };
  let total = 0;
  const notFoundName = listing.kind === 'project' ? 'Project' : 'User';
  return {
    keyset,
    sort,
    perPage,
    async fetch(limit, offset) {
      if (!source) throw notFound(notFoundName);
      const page = await q.listEventPage(ctx.db, ctx.actor, source, filter, { limit, offset, perPage: keyset ? null : perPage, countLimit: COUNT_LIMIT + 1 });
      if (!page.head) throw notFound(notFoundName);
      if (listing.kind === 'project') {
        assertCan(ctx.actor, 'project:read', {
          kind: 'project',
          visibilityLevel: page.head.visibilityLevel,
          accessLevel: page.head.accessLevel,
          archived: page.head.archived,
          features: page.head.features!,
        });
      }
      // GitLab's read_user_profile: a private profile yields 200 [] (the statement already returned nothing for it).
      if (
        listing.kind === 'user' &&
        !can(ctx.actor, 'user:read_profile', { kind: 'user', id: page.head.id, state: 'active', privateProfile: page.head.privateProfile })
      ) {
        total = 0;
        return [];
      }
      total = page.total ?? 0;
      return page.rows;
    },
    count: async () => total,
  };
}

const NOTE_TYPES = new Set(['Note', 'DiscussionNote', 'DiffNote', 'LegacyDiffNote']);
const SNIPPET_TYPES = new Set(['Snippet', 'ProjectSnippet', 'PersonalSnippet']);

function issueFacts(project: ProjectFacts, issue: NonNullable<q.EventListRow['issue']>): IssueFacts {
  return { kind: 'issue', project, authorId: issue.authorId, assigneeIds: issue.assigneeIds, confidential: issue.confidential };
}

function mergeRequestFacts(project: ProjectFacts, mr: NonNullable<q.EventListRow['mergeRequest']>): MergeRequestFacts {
  return { kind: 'merge_request', project, authorId: mr.authorId, assigneeIds: mr.assigneeIds, discussionLocked: mr.discussionLocked };
}

function snippetFacts(project: ProjectFacts, snippet: NonNullable<q.EventListRow['snippet']>): ProjectSnippetFacts {
  return { kind: 'snippet', project, visibilityLevel: snippet.visibilityLevel, authorId: snippet.authorId };
}

/** What a comment event's note is on, when it still exists. */
function noteableFacts(project: ProjectFacts, row: q.EventListRow): NoteableFacts | null {
  if (row.note?.noteableType === 'Issue') return row.issue && issueFacts(project, row.issue);
  if (row.note?.noteableType === 'MergeRequest') return row.mergeRequest && mergeRequestFacts(project, row.mergeRequest);
  if (row.note?.noteableType === 'Snippet') return row.snippet && snippetFacts(project, row.snippet);
  // A commit note's event is shown under download_code (Event#capability for commit notes).
  if (row.note?.noteableType === 'Commit') return { kind: 'commit', project };
  return null;
}

/**
 * Event#visible_to_user? after pagination, with GitLab's capability per target: issues need read_issue
 * (confidential issues), merge requests read_merge_request, notes read_note (their noteable, and confidential notes), snippets read_snippet, pushes
 * download_code, everything else in a project read_project; a group's events need read_group. An event whose target
 * is gone (a deleted issue, merge request, note or snippet) is hidden: GitLab asks the policy about a nil target. Deleted
 * milestones are the exception: their events drop the target id and stay (Milestones::DestroyService).
 */
export function visibleToActor(ctx: RequestContext, row: q.EventListRow): boolean {
  const actor = ctx.actor;
  if (row.projectId === null) {
    // Epics' events (and their notes') are not listed by the API in 13.6 (db/queries/events/listing-sql.ts visibilitySql).
    if (row.targetType === 'Epic' || (row.targetType !== null && NOTE_TYPES.has(row.targetType))) return false;
    return row.group !== null && can(actor, 'group:read', { kind: 'group', ...row.group });
  }
  if (!row.project) return false;
  const project: ProjectFacts = { kind: 'project', ...row.project };
  const type = row.targetType;
  if (type === 'Issue') return row.issue !== null && can(actor, 'issue:read', issueFacts(project, row.issue));
  // read_merge_request (download_code): guests of a private project see neither an MR's events nor its notes'.
  if (type === 'MergeRequest') return row.mergeRequest !== null && can(actor, 'merge_request:read', mergeRequestFacts(project, row.mergeRequest));
  // A deleted milestone's events have no target id (detachEventTarget) and are the project's, as in GitLab.
  if (type === 'Milestone') return (row.targetId === null || row.milestone !== null) && can(actor, 'project:read', project);
  if (type !== null && SNIPPET_TYPES.has(type)) return row.snippet !== null && can(actor, 'snippet:read', snippetFacts(project, row.snippet));
  if (type !== null && NOTE_TYPES.has(type)) {
    const noteable = noteableFacts(project, row);
    const n = row.note;
    return (
      noteable !== null &&
      n !== null &&
      can(actor, 'note:read', { kind: 'note', noteable, authorId: n.author?.id ?? null, system: n.system, confidential: n.confidential })
    );
  }
  if (row.push) return can(actor, 'project:download_code', project);
  return can(actor, 'project:read', project);
}
