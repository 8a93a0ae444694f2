// Decoding the events listing statement's raw rows (listing.ts) into EventListRow: the driver returns text, numbers
// or booleans depending on the runtime, so every column is read through num/bool/intArray.
import type { EventListRow } from './listing.ts';
import type { ProjectFeatures } from '../lib/access.ts';

export type Raw = Record<string, unknown>;
export const num = (v: unknown) => (v == null ? null : Number(v));
export const bool = (v: unknown) => v === true || v === 't' || v === 'true';
/** A json column: parsed by most drivers, text where one leaves it. */
export const json = <T>(v: unknown): T | null => (v == null ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const intArray = (v: unknown): number[] => {
  if (v == null) return [];
  if (Array.isArray(v)) return v.map(Number);
  const s = String(v).replace(/^\{|\}$/g, '');
  return s ? s.split(',').map(Number) : [];
};
const userOf = (r: Raw, p: string) =>
  r[`${p}_id`] == null
    ? null
    : {
        id: Number(r[`${p}_id`]),
        username: String(r[`${p}_username`]),
        name: String(r[`${p}_name`]),
        state: String(r[`${p}_state`]),
        avatarUrl: (r[`${p}_avatar_url`] as string | null) ?? null,
      };

export function toRow(r: Raw): EventListRow {
  return {
    id: Number(r.id),
    projectId: num(r.project_id),
    groupId: num(r.group_id),
    authorId: Number(r.author_id),
    action: Number(r.action),
    targetType: (r.target_type as string | null) ?? null,
    targetId: num(r.target_id),
    createdAt: String(r.created_at),
    author: userOf(r, 'author')!,
    project:
      r.project_visibility == null
        ? null
        : {
            visibilityLevel: Number(r.project_visibility),
            archived: bool(r.project_archived),
            accessLevel: Number(r.project_access),
            features: json<ProjectFeatures>(r.project_features)!,
          },
    group:
      r.group_visibility == null
        ? null
        : { visibilityLevel: Number(r.group_visibility), accessLevel: Number(r.group_access), hasDescendantAccess: bool(r.group_descendant) },
    issue:
      r.issue_id == null
        ? null
        : {
            id: Number(r.issue_id),
            iid: Number(r.issue_iid),
            title: String(r.issue_title),
            confidential: bool(r.issue_confidential),
            authorId: num(r.issue_author_id),
            assigneeIds: intArray(r.issue_assignee_ids),
          },
    mergeRequest:
      r.mr_id == null
        ? null
        : {
            id: Number(r.mr_id),
            iid: Number(r.mr_iid),
            title: String(r.mr_title),
            authorId: num(r.mr_author_id),
            assigneeIds: intArray(r.mr_assignee_ids),
            discussionLocked: bool(r.mr_discussion_locked),
          },
    milestone: r.milestone_iid == null ? null : { iid: Number(r.milestone_iid), title: String(r.milestone_title) },
    snippet:
      r.snippet_title == null ? null : { title: String(r.snippet_title), visibilityLevel: Number(r.snippet_visibility), authorId: Number(r.snippet_author_id) },
    note:
      r.note_id == null
        ? null
        : {
            id: Number(r.note_id),
            type: (r.note_type as string | null) ?? null,
            body: String(r.note_body),
            system: bool(r.note_system),
            confidential: bool(r.note_confidential),
            noteableType: String(r.note_noteable_type),
            noteableId: num(r.note_noteable_id),
            createdAt: String(r.note_created_at),
            updatedAt: String(r.note_updated_at),
            author: userOf(r, 'note_author'),
          },
    push:
      r.push_commit_count == null
        ? null
        : {
            commitCount: Number(r.push_commit_count),
            action: Number(r.push_action),
            refType: Number(r.push_ref_type),
            commitFrom: (r.push_commit_from as string | null) ?? null,
            commitTo: (r.push_commit_to as string | null) ?? null,
            ref: (r.push_ref as string | null) ?? null,
            commitTitle: (r.push_commit_title as string | null) ?? null,
            refCount: num(r.push_ref_count),
          },
  };
}
