// The open merge requests from a project's branches with where they live: what a push prints after it lands
// ("View merge request for <branch>:" and the URL, GitLab's MergeRequests::GetUrlsService).
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { mergeRequests, projects } from '../../schema/index.ts';
import { rows, textArray } from '../lib/raw.ts';

export interface OpenMergeRequestLink {
  sourceBranch: string;
  iid: number;
  targetPath: string;
}

/** The open merge requests whose source is one of `branches` of the project, newest last (the URL names the target). */
export async function openMergeRequestLinks(db: Db, sourceProjectId: number, branches: readonly string[]): Promise<OpenMergeRequestLink[]> {
  if (!branches.length) return [];
  const found = await rows<{ source_branch: string; iid: number; path: string }>(
    db,
    sql`SELECT m.source_branch, m.iid, p.path_with_namespace AS path FROM ${mergeRequests} m JOIN ${projects} p ON p.id = m.target_project_id
      WHERE m.source_project_id = ${sourceProjectId} AND m.state = 'opened' AND m.source_branch = ANY(${textArray(branches)})
      ORDER BY m.id`,
  );
  return found.map((r) => ({ sourceBranch: r.source_branch, iid: Number(r.iid), targetPath: r.path }));
}
