// Loads a repository the system `git` built into a project, and turns `git diff`'s patch output into GitLab's diff
// entries (Entities::Diff: the patch from the first `@@`, without git's header lines), so the diff tests compare
// what the API answers with what git prints for the same change.
import { createRepository, findRepository, setDefaultBranchQuery } from '../../../db/queries/repositories/refs.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { testDb } from '../../helpers/app.ts';
import { git, readGitObjects, runGit } from '../../helpers/git-dir.ts';

export interface Entry {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
}

/** Every object of the git repository at `work` and its `branches`, into the project's repository. */
export async function loadGitRepository(work: string, projectId: number, branches: readonly string[]): Promise<void> {
  const poolId = (await findRepository(testDb().db, projectId))?.poolId ?? (await createRepository(testDb().db, projectId));
  await setDefaultBranchQuery(testDb().db, projectId, 'main');
  const refs = [];
  for (const name of branches) refs.push({ projectId, name: `refs/heads/${name}`, old: null, new: await git(work, 'rev-parse', name) });
  await applyWrite(testDb(), poolId, await prepareWrite(await readGitObjects(work)), refs);
}

/** `git diff` between two revisions (renames at git's default 50%, full index) as GitLab's entries. */
export async function gitDiffEntries(work: string, ...revs: string[]): Promise<Entry[]> {
  const out = (await runGit(work, ['diff', '--no-color', '--no-ext-diff', '--full-index', '--find-renames=50%', ...revs])).stdout.toString();
  const entries: Entry[] = [];
  for (const part of out.split(/^(?=diff --git )/m).filter(Boolean)) {
    const lines = part.split('\n');
    const [, a, b] = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0]!)!;
    const e: Entry = { old_path: a!, new_path: b!, a_mode: '', b_mode: '', new_file: false, renamed_file: false, deleted_file: false, diff: '' };
    let i = 1;
    for (; i < lines.length && !lines[i]!.startsWith('@@') && !lines[i]!.startsWith('Binary files'); i++) {
      const line = lines[i]!;
      let m: RegExpExecArray | null;
      if ((m = /^new file mode (\d+)/.exec(line))) Object.assign(e, { new_file: true, a_mode: '0', b_mode: m[1] });
      else if ((m = /^deleted file mode (\d+)/.exec(line))) Object.assign(e, { deleted_file: true, a_mode: m[1], b_mode: '0' });
      else if ((m = /^old mode (\d+)/.exec(line))) e.a_mode = m[1]!;
      else if ((m = /^new mode (\d+)/.exec(line))) e.b_mode = m[1]!;
      else if (line.startsWith('rename from ')) e.renamed_file = true;
      else if ((m = /^index \S+ (\d+)$/.exec(line))) e.a_mode = e.b_mode = m[1]!;
    }
    e.diff = lines.slice(i).join('\n');
    // A rename without changes has no `index` line: the mode is the file's on the new side.
    if (!e.a_mode) e.a_mode = e.b_mode = (await git(work, 'ls-tree', revs.at(-1)!.split('...').at(-1)!, '--', e.new_path)).split(' ')[0]!;
    entries.push(e);
  }
  return entries;
}
