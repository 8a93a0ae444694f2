// The noteables whose notes the notes and discussions APIs serve, found readable through their own domains: issues
// and merge requests (by iid), project snippets (by id), commits (by revision) and group epics (by id: EE's notes
// helpers find the epic with EpicsFinder#find, the epic's id, not its iid), and by GraphQL's NoteableID. An epic's
// notes belong to its group (no project); its facts are the epic rules of its group (lib/policy.ts). Alerts are
// noteables through GraphQL's NoteableID only (13.6 has no REST notes on alerts); read_alert_management_alert decides.
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import type { NoteableKey } from '../../db/queries/notes.ts';
import type { AlertView } from '../../db/queries/alerts.ts';
import { alertNoteableFacts, findAlertById } from '../alerts/service.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import { resolveRevision } from '../repositories/lookups.ts';
import { findSnippetProjectId } from '../snippets/lookups.ts';
import { freshMentions } from '../issuables/mention-todos.ts';
import { findIssue, findIssueById, issueFacts } from '../issues/service.ts';
import type { RequestContext } from '../lib/context.ts';
import { isDomainError, notFound, recordNotFound } from '../lib/errors.ts';
import type { EpicModel } from '../epics/models.ts';
import { epicsByIds } from '../epics/reads.ts';
import { epicFacts } from '../epics/service.ts';
import { findGroup } from '../groups/service.ts';
import type { Ref } from '../lib/ids.ts';
import { can, type EpicNoteableFacts, type NoteableFacts } from '../lib/policy.ts';
import { findMergeRequest, findMergeRequestById, mergeRequestFacts } from '../merge-requests/service.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { findProjectSnippet, snippetFacts } from '../snippets/service.ts';

/**
 * `/projects/:id/issues/:noteable_id/notes` and `/projects/:id/merge_requests/:noteable_id/notes` (by iid) or
 * `/projects/:id/snippets/:noteable_id/notes` (by id).
 */
export type NoteableRef =
  | { kind: 'issues' | 'snippets' | 'merge_requests'; project: Ref | null; id: number | null }
  /** `/projects/:id/repository/commits/:commit_id/...` (discussions.rb): any revision naming a commit. */
  | { kind: 'commits'; project: Ref | null; sha: string }
  /** `/groups/:id/epics/:noteable_id/notes` and `.../discussions`: the epic's id, within the group and its subgroups. */
  | { kind: 'epics'; group: Ref | null; id: number | null };

export interface Noteable {
  key: NoteableKey;
  /** An alert noteable (GraphQL only: notes on alerts have no REST routes in 13.6): its row and issue iid. */
  alert?: AlertView;
  /** The project the noteable (and its notes) belong to; null for an epic (see `epic`). */
  project: ProjectView | null;
  /** An epic noteable: the epic with its group. */
  epic?: EpicModel;
  facts: NoteableFacts;
  /** The issue's or merge request's iid (noteable_iid), null for snippets and commits. */
  iid: number | null;
  /** A merge request noteable's view (its diff versions are what diff notes are placed on). */
  mergeRequest?: MergeRequestView;
  /** Read with the noteable (findNoteable's `mentionsIn`): the users that text mentions, with their project levels. */
  mentioned?: { text: string; candidates: Awaited<ReturnType<typeof findIssue>>['mentioned'] };
}

/**
 * The readable noteable (404 `Issue Not Found` / `Snippet Not Found` otherwise). `mentionsIn`: the body of a note
 * about to be created on it, whose mentioned users are read in the same round trip as an issue (for createNote).
 */
export async function findNoteable(ctx: RequestContext, ref: NoteableRef, options: { mentionsIn?: string } = {}): Promise<Noteable> {
  if (ref.kind === 'epics') {
    // `user_group` (404 `Group Not Found`), then EpicsFinder.new(user, group_id:).find(id): the group's epics and its
    // subgroups' the actor may read (none without the license), a missing one `404 Not found`.
    const group = await findGroup(ctx, ref.group);
    const [model] = ref.id === null ? [null] : await epicsByIds(ctx, [ref.id]);
    if (!model || !model.group.namespace.traversalIds.includes(group.namespace.id)) throw recordNotFound();
    return epicNoteable(ctx, model);
  }
  if (ref.kind === 'snippets') {
    const { project, snippet } = await findProjectSnippet(ctx, ref.project, ref.id);
    return snippetNoteable(project, snippet.snippet);
  }
  if (ref.kind === 'merge_requests') {
    const { project, view } = await findMergeRequestNoteable(ctx, { project: ref.project, iid: ref.id });
    return mergeRequestNoteable(project, view);
  }
  if (ref.kind === 'commits') {
    // NotesFinder's commit target: `project.commit(id)` under download_code; 404 `Commit Not Found` otherwise.
    const project = await findProject(ctx, ref.project);
    if (!can(ctx.actor, 'project:download_code', projectFacts(project))) throw notFound('Commit');
    const info = await resolveRevision(ctx.db, project.project.id, ref.sha);
    if (!info) throw notFound('Commit');
    return commitNoteable(project, info.oid);
  }
  const text = options.mentionsIn;
  const { project, view, mentioned } = await findIssue(
    ctx,
    { project: ref.project, iid: ref.id },
    { mentions: text === undefined ? [] : freshMentions([text]).names },
  );
  return { ...issueNoteable(project, view), ...(text === undefined ? {} : { mentioned: { text, candidates: mentioned } }) };
}

/**
 * The notes helpers' find_noteable for a merge request: one missing or unreadable is `404 MergeRequest Not Found`
 * (`not_found!(noteable_type)` with the class), the project's own 404 otherwise.
 */
async function findMergeRequestNoteable(ctx: RequestContext, ref: { project: Ref | null; iid: number | null }) {
  try {
    return await findMergeRequest(ctx, ref);
  } catch (e) {
    if (isDomainError(e, 'forbidden') || (isDomainError(e, 'not_found') && e.problem.record)) throw notFound('MergeRequest');
    throw e;
  }
}

/** A merge request (already found readable) as a noteable. */
export const mergeRequestNoteable = (project: ProjectView, view: MergeRequestView): Noteable => ({
  key: { type: 'MergeRequest', id: view.mr.id },
  project,
  facts: mergeRequestFacts(project, view),
  iid: view.mr.iid,
  mergeRequest: view,
});

/** A project snippet (already found readable) as a noteable. */
export const snippetNoteable = (project: ProjectView, snippet: Parameters<typeof snippetFacts>[0] & { id: number }): Noteable => {
  const facts = projectFacts(project);
  return { key: { type: 'Snippet', id: snippet.id }, project, facts: { ...snippetFacts(snippet, facts), project: facts }, iid: null };
};

/** A noteable commit: named by its full id within the project whose notes these are. */
export type CommitNoteable = Noteable & { key: Extract<NoteableKey, { type: 'Commit' }>; project: ProjectView };

/** A commit of the project (already found, under download_code) as a noteable: its notes are the project's. */
export const commitNoteable = (project: ProjectView, commitId: string): CommitNoteable => ({
  key: { type: 'Commit', projectId: project.project.id, commitId },
  project,
  facts: { kind: 'commit', project: projectFacts(project) },
  iid: null,
});

/** An epic (already found readable, with its group) as a noteable: no iid in the note entity (Issue/MR only). */
export type EpicNoteable = Noteable & { facts: EpicNoteableFacts; epic: EpicModel };

export const epicNoteable = (ctx: RequestContext, model: EpicModel): EpicNoteable => ({
  key: { type: 'Epic', id: model.view.epic.id },
  project: null,
  epic: model,
  facts: { kind: 'epic', group: epicFacts(ctx, model.group, model.view.epic.confidential), authorId: model.view.epic.authorId },
  iid: null,
});

/** An alert (already found readable) as a noteable: its notes are its project's. */
export const alertNoteable = (project: ProjectView, view: AlertView): Noteable => ({
  key: { type: 'AlertManagement::Alert', id: view.alert.id },
  project,
  alert: view,
  facts: alertNoteableFacts(project),
  iid: view.alert.iid,
});

/** An issue (already found readable) as a noteable. */
export const issueNoteable = (project: ProjectView, view: IssueView): Noteable => ({
  key: { type: 'Issue', id: view.issue.id },
  project,
  facts: issueFacts(project, view),
  iid: view.issue.iid,
});

/**
 * The readable noteable by model name and database id (GraphQL's NoteableID): an issue, a merge request, a project
 * snippet, an epic or an alert, 404 as findNoteable otherwise (personal snippets carry no notes here).
 */
export async function findNoteableById(ctx: RequestContext, gid: { type: string; id: number }): Promise<Noteable> {
  if (gid.type === 'Issue') {
    const { project, view } = await findIssueById(ctx, gid.id);
    return issueNoteable(project, view);
  }
  if (gid.type === 'MergeRequest') {
    const { project, view } = await findMergeRequestById(ctx, gid.id).catch((e) => {
      if (isDomainError(e, 'forbidden') || isDomainError(e, 'not_found')) throw notFound('MergeRequest');
      throw e;
    });
    return mergeRequestNoteable(project, view);
  }
  if (gid.type === 'ProjectSnippet' || gid.type === 'Snippet') {
    const projectId = await findSnippetProjectId(ctx.db, gid.id);
    if (projectId == null) throw notFound('Snippet');
    return findNoteable(ctx, { kind: 'snippets', project: { id: projectId }, id: gid.id });
  }
  if (gid.type === 'Epic') {
    const [model] = await epicsByIds(ctx, [gid.id]);
    if (!model) throw notFound('Epic');
    return epicNoteable(ctx, model);
  }
  if (gid.type === 'AlertManagement::Alert') {
    const { project, view } = await findAlertById(ctx, gid.id);
    return alertNoteable(project, view);
  }
  throw notFound('Noteable');
}
