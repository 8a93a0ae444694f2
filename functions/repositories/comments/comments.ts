// Commit comments (GitLab 13.6 lib/api/commits.rb, `GET`/`POST commits/:sha/comments`): notes on a commit of the
// project, written by the one note verb (functions/notes/service.ts createNote, which records `commented`). The
// endpoints ask for download_code only (`before { authorize! :download_code }`, no create_note): archived projects
// take comments. (GitLab lets an anonymous comment on a public project reach the model, whose `author` rule answers
// 400; here app.ts's rule for every write answers 401 first.)
// `sha` is any revision (`user_project.commit`), stored as the commit's full id. A comment given `path` and `line` is
// placed on that line of the commit's diff when the line is there (a LegacyDiffNote), and on the whole commit
// otherwise (its path, line and line_type then null), as GitLab does.
import type { Db } from '../../../db/client.ts';
import type { NoteListFilter, NoteOrder, NoteView } from '../../../db/queries/notes.ts';
import { countNotes, listNotes } from '../../notes/lookups.ts';
import { changedPaths } from '../../../db/queries/repositories/diffs.ts';
import { resolveRevision } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { COUNT_LIMIT } from '../../lib/pagination.ts';
import { createNote } from '../../notes/create.ts';
import { commitNoteable, type CommitNoteable } from '../../notes/service.ts';
import { commentLineCode, commentPosition, NO_POSITION, pathHash, type CommentPosition, type DiffText } from './lines.ts';
import type { CommitCommentParams } from './schemas.ts';
import { fileChanges, toDiffEntry } from '../diffs/diffs.ts';
import { projectFor, type RepositoryProject } from '../service.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** `before { authorize! :download_code, user_project }`: routes call it ahead of reading parameters, as Grape does. */
export const commitCommentsProject = (ctx: RequestContext, ref: Ref | null) => projectFor(ctx, ref, 'project:download_code');

/** The commit `sha` names in the project, as a noteable: 404 `Commit Not Found` otherwise. */
async function findCommit(ctx: RequestContext, found: RepositoryProject, sha: string): Promise<CommitNoteable> {
  const info = await resolveRevision(ctx.db, found.context.projectId, sha);
  if (!info) throw notFound('Commit');
  return commitNoteable(found.project, info.oid);
}

/**
 * The commit's diffs (against its first parent, as commits/:sha/diff) of the files whose path passes `keep`: one
 * statement for the changed paths, and only the kept files' hunks rendered.
 */
async function commitDiffs(db: Db, projectId: number, oid: string, keep: (path: string) => Promise<boolean>): Promise<DiffText[]> {
  const changes = fileChanges(await changedPaths(db, projectId, [{ oldCommit: null, newCommit: oid }]));
  const out: DiffText[] = [];
  for (const c of changes) if (await keep((c.newPath ?? c.oldPath)!)) out.push(toDiffEntry(c).entry);
  return out;
}

/** Where each note sits (Entities::CommitNote's path/line/line_type); the diff is read only when a note is placed. */
async function positionsOf(db: Db, noteable: CommitNoteable, notes: readonly NoteView['note'][]): Promise<CommentPosition[]> {
  const codes = notes.map((n) => (n.type === 'LegacyDiffNote' && n.lineCode ? n.lineCode : null));
  const hashes = new Set(codes.filter((c) => c !== null).map((c) => c.split('_')[0]));
  if (!hashes.size) return notes.map(() => NO_POSITION);
  const diffs = await commitDiffs(db, noteable.key.projectId, noteable.key.commitId, async (p) => hashes.has(await pathHash(p)));
  return Promise.all(codes.map((code) => (code ? commentPosition(diffs, code) : NO_POSITION)));
}

/** GET commits/:sha/comments: the commit's notes oldest first (`commit.notes.order(:created_at)`), for pagination. */
export async function listCommitComments({ ctx, input }: Verb<{ found: RepositoryProject; sha: string }>) {
  const noteable = await findCommit(ctx, input.found, input.sha);
  const filter: NoteListFilter = { kinds: 'all_notes', withConfidential: true };
  const order: NoteOrder = { by: 'created_at', sort: 'asc' };
  let total: number | undefined;
  return {
    fetch: async (limit: number, offset: number) => {
      const rows = await listNotes(ctx.db, noteable.key, filter, order, limit, offset, COUNT_LIMIT + 1);
      if (rows[0]) total = rows[0].total ?? 0;
      return rows;
    },
    count: (limit: number) => (total !== undefined ? Promise.resolve(Math.min(total, limit)) : countNotes(ctx.db, noteable.key, filter, limit)),
    positions: (rows: readonly NoteView[]) =>
      positionsOf(
        ctx.db,
        noteable,
        rows.map((r) => r.note),
      ),
  };
}

/**
 * POST commits/:sha/comments: the note (placed on the diff line when `path`, `line` and `line_type` name one) and its
 * `commented` event in one batch (createNote). Model failures read `Failed to save note {...}` (render_api_error!).
 */
export async function createCommitComment({ ctx, input }: Verb<{ found: RepositoryProject; sha: string; params: CommitCommentParams }>) {
  const noteable = await findCommit(ctx, input.found, input.sha);
  const at = input.params.position;
  const diffs = at ? await commitDiffs(ctx.db, noteable.key.projectId, noteable.key.commitId, async (p) => p === at.path) : [];
  const lineCode = at ? await commentLineCode(diffs, at.path, at.line, at.lineType) : null;
  const { view } = await createNote({
    ctx,
    input: {
      noteable,
      params: { body: input.params.note },
      failure: { label: 'Failed to save note', via: 'render_api_error' },
      diffLine: lineCode ? { lineCode } : null,
    },
  });
  return { view, position: lineCode ? await commentPosition(diffs, lineCode) : NO_POSITION };
}
