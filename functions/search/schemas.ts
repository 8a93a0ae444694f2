// The search API's parameters and what each scope presents (lib/api/search.rb's SCOPE_ENTITY): every entity is its
// own domain's serializer; only Entities::Blob is the search's own.
import * as z from 'zod/mini';
import type { MilestoneRow, UserRow } from '../../db/schema/index.ts';
import type { IssueView } from '../../db/queries/issues.ts';
import type { MergeRequestView } from '../../db/queries/merge-requests.ts';
import type { ProjectView } from '../../db/queries/projects.ts';
import type { Config } from '../lib/context.ts';
import { paginationParams } from '../lib/pagination.ts';
import { bool, oneOf, plainString, schema, str } from '../lib/validate.ts';
import { toIssueBasic } from '../issues/schemas.ts';
import { toMergeRequestBasic } from '../merge-requests/schemas.ts';
import { toMilestone } from '../milestones/schemas.ts';
import { toNote, type NoteShape } from '../notes/schemas.ts';
import { toBasicProject } from '../projects/schemas.ts';
import { toCommitDetail, type CommitView, type RepositoryContext } from '../repositories/entities.ts';
import { toSnippet, type SnippetView } from '../snippets/schemas.ts';
import { toUserBasic, type BasicUserFields } from '../users/schemas.ts';
import { GLOBAL_SCOPES, GROUP_SCOPES, PROJECT_SCOPES, SEARCH_STATES } from './scopes.ts';

const common = () => ({
  ...paginationParams(),
  search: plainString(),
  state: z.optional(oneOf(SEARCH_STATES)),
  confidential: z.optional(bool()),
});

export const GlobalSearchInput = schema(() => z.object({ ...common(), scope: oneOf(GLOBAL_SCOPES) }));
export const GroupSearchInput = schema(() => z.object({ ...common(), scope: oneOf(GROUP_SCOPES) }));
export const ProjectSearchInput = schema(() => z.object({ ...common(), scope: oneOf(PROJECT_SCOPES), ref: z.optional(str(1024)) }));

/** A found blob (Gitlab::Search::FoundBlob): a content match's chunk (no id) or a file whose path matched. */
export interface FoundBlob {
  basename: string;
  data: string;
  path: string;
  id: string | null;
  ref: string;
  startline: number;
  projectId: number;
}

/** One result, tagged with its scope. */
export type SearchRow =
  | { scope: 'projects'; v: ProjectView }
  | { scope: 'issues'; v: IssueView }
  | { scope: 'merge_requests'; v: MergeRequestView }
  | { scope: 'milestones'; milestone: MilestoneRow; projectPath: string }
  | { scope: 'snippet_titles'; v: SnippetView }
  | { scope: 'users'; u: UserRow }
  | { scope: 'notes'; n: { note: NoteShape; author: BasicUserFields | null; resolvedBy: BasicUserFields | null; noteableIid: number | null } }
  | { scope: 'commits'; c: CommitView; context: RepositoryContext }
  | { scope: 'blobs'; b: FoundBlob };

/** Entities::Blob (`filename` repeats the path, as 13.6 does). */
export const toBlob = (b: FoundBlob) => ({
  basename: b.basename,
  data: b.data,
  path: b.path,
  filename: b.path,
  id: b.id,
  ref: b.ref,
  startline: b.startline,
  project_id: b.projectId,
});

/** SCOPE_ENTITY: BasicProjectDetails, IssueBasic, MergeRequestBasic, Milestone, Snippet, UserBasic, Note, CommitDetail, Blob. */
export function toSearchResult(r: SearchRow, config: Config) {
  switch (r.scope) {
    case 'projects':
      return toBasicProject(r.v.project, r.v.namespace, config, r.v.forksCount, r.v.repository);
    case 'issues':
      return toIssueBasic(r.v, config);
    case 'merge_requests':
      return toMergeRequestBasic(r.v, config);
    case 'milestones':
      return toMilestone(r.milestone, { fullPath: r.projectPath }, config);
    case 'snippet_titles':
      return toSnippet(r.v, config);
    case 'users':
      return toUserBasic(r.u, config);
    case 'notes':
      return toNote(r.n.note, r.n.author, r.n.noteableIid, config, r.n.resolvedBy);
    case 'commits':
      return toCommitDetail(r.c, r.context, null);
    case 'blobs':
      return toBlob(r.b);
  }
}
