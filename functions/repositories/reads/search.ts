// The search API's repository scopes (ProjectSearchResults#commits and #blobs), below the caller's download_code
// check: commits by message (git log --grep, case-insensitive, at most 1000) then the one the query names by id, and
// the files whose content or path holds the query at a revision (db/queries/repositories/grep.ts).
import { searchFiles as searchFilesQuery, type FoundFile } from '../../../db/queries/repositories/grep.ts';
import { logPage, resolveRevision } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import type { CommitView } from '../entities.ts';
import { commitView } from '../service.ts';

/** find_commits_by_message's limit. */
const MESSAGE_MATCHES = 1000;

export async function searchCommits(ctx: RequestContext, projectId: number, query: string, rev: string): Promise<CommitView[]> {
  const key = query.trim();
  const page = key ? await logPage(ctx.db, { projectId, rev, grep: query, limit: MESSAGE_MATCHES, offset: 0 }) : undefined;
  const found = (page?.commits ?? []).map(commitView);
  // Commit.valid_hash?: 7 to 40 hex digits name a commit anywhere in the project, appended when not found already.
  if (/^[0-9a-f]{7,40}$/i.test(key)) {
    const byId = await resolveRevision(ctx.db, projectId, key.toLowerCase());
    if (byId && !found.some((c) => c.oid === byId.oid)) found.push(commitView(byId));
  }
  return found;
}

/** At most `limit` content matches and `limit` path matches in path order; null when the revision names no commit. */
export const searchFiles = (ctx: RequestContext, projectId: number, rev: string, query: string, limit: number): Promise<FoundFile[] | null> =>
  searchFilesQuery(ctx.db, projectId, rev, query, limit);
