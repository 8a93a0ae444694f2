// A new project's repository, written inside the project-creating transaction (projects/service.ts), so a project
// never exists without one: a repository with a pool of its own (a fork's joins its source's pool in the fork's own
// statement, db/queries/repositories/forks.ts). `initialize_with_readme` adds GitLab 13.6's first commit
// (Projects::CreateService#create_readme: README.md "# <name>\n\n<description>", message "Initial commit", on the
// default branch, authored by the creator) with its push event, as a push through Files::CreateService records one.
import type { Db } from '../../../db/client.ts';
import { createRepository, setDefaultBranchQuery, updateRefQuery } from '../../../db/queries/repositories/refs.ts';
import { protectDefaultBranchQuery } from '../../../db/queries/repositories/protected-branches.ts';
import type { UserRow } from '../../../db/schema/index.ts';
import { recordEvent } from '../../events/record.ts';
import { toPushPayload } from '../entities.ts';
import { encodeCommit } from '../git/commit.ts';
import { hashObject } from '../git/oid.ts';
import { encodeTree } from '../git/tree.ts';
import { prepareWrite, writeStatements, type PreparedWrite } from './store.ts';

export interface Readme {
  branch: string;
  write: PreparedWrite;
  commitOid: string;
  message: string;
}

/** GitLab 13.6's default branch for a new repository when none is given (the instance setting came in 13.11). */
export const DEFAULT_BRANCH = 'master';

/** The README commit's objects, built (and hashed) before the transaction opens. */
export async function prepareReadme(p: { name: string; description: string; branch: string; author: Pick<UserRow, 'name' | 'email'> }): Promise<Readme> {
  const blob = new TextEncoder().encode(`# ${p.name}\n\n${p.description}`);
  const blobOid = await hashObject('blob', blob);
  const tree = encodeTree([{ mode: '100644', name: new TextEncoder().encode('README.md'), oid: blobOid }]);
  const treeOid = await hashObject('tree', tree);
  const signature = { name: p.author.name, email: p.author.email, time: Math.floor(Date.now() / 1000), tz: '+0000' };
  const message = 'Initial commit';
  const commit = encodeCommit({ tree: treeOid, parents: [], author: signature, committer: signature, headers: [], message: new TextEncoder().encode(message) });
  const write = await prepareWrite([
    { type: 'blob', body: blob },
    { type: 'tree', body: tree },
    { type: 'commit', body: commit },
  ]);
  return { branch: p.branch, write, commitOid: write.oids[2]!, message };
}

/** Creates the repository of a new project in `tx` (a fork's is written with the fork: db/queries/repositories/forks.ts). */
export async function createProjectRepository(tx: Db, a: { projectId: number; readme?: Readme | undefined; authorId: number }) {
  const poolId = await createRepository(tx, a.projectId);
  const readme = a.readme;
  if (!readme) return;
  for (const statement of writeStatements(tx, poolId, readme.write)) await statement;
  const ref = `refs/heads/${readme.branch}`;
  await updateRefQuery(tx, { projectId: a.projectId, name: ref, old: null, new: readme.commitOid });
  await setDefaultBranchQuery(tx, a.projectId, readme.branch);
  await protectDefaultBranchQuery(tx, a.projectId, readme.branch);
  await recordEvent(tx, {
    action: 'pushed',
    authorId: a.authorId,
    projectId: a.projectId,
    push: toPushPayload({ ref, before: null, after: readme.commitOid, commitCount: 1, lastCommitMessage: readme.message }),
  });
}
