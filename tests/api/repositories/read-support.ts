// Repository content for the read tests, written straight through the store (as tests/repositories/store.test.ts
// does): commits on branches, tags, the default branch. Each test file builds its own projects.
import { createRepository, findRef, findRepository, setDefaultBranchQuery } from '../../../db/queries/repositories/refs.ts';
import { protectDefaultBranchQuery } from '../../../db/queries/repositories/protected-branches.ts';
import { encodeTag } from '../../../functions/repositories/git/tag.ts';
import { hashObject } from '../../../functions/repositories/git/oid.ts';
import { applyWrite, prepareWrite } from '../../../functions/repositories/store/store.ts';
import { testDb } from '../../helpers/app.ts';
import { ObjectBuilder, type TreeSpec } from '../../repositories/store-support.ts';

export { nested, type TreeSpec } from '../../repositories/store-support.ts';

/** Writes commits and refs into one project's repository (created when the project has none yet). */
export class RepoWriter {
  private constructor(
    readonly projectId: number,
    readonly poolId: number,
  ) {}

  static async open(projectId: number, defaultBranch = 'main'): Promise<RepoWriter> {
    const db = testDb().db;
    const poolId = (await findRepository(db, projectId))?.poolId ?? (await createRepository(db, projectId));
    await setDefaultBranchQuery(db, projectId, defaultBranch);
    // What a first push does with the default branch (Projects::ProtectDefaultBranchService).
    await protectDefaultBranchQuery(db, projectId, defaultBranch);
    return new RepoWriter(projectId, poolId);
  }

  /** Moves (or creates) `refs/heads/<branch>` with compare-and-swap from where it is now. */
  private async moveRef(name: string, oid: string, objects: Parameters<typeof prepareWrite>[0]) {
    const old = (await findRef(testDb().db, this.projectId, name)) ?? null;
    await applyWrite(testDb(), this.poolId, await prepareWrite(objects), [{ projectId: this.projectId, name, old, new: oid }]);
  }

  /** A commit of `tree` on `branch` (parent: the branch's tip, or `parents` when given); returns its id. */
  async commit(branch: string, tree: TreeSpec, message: string, time: number, parents?: string[]): Promise<string> {
    const b = new ObjectBuilder();
    const tip = await findRef(testDb().db, this.projectId, `refs/heads/${branch}`);
    const oid = await b.commit(await b.tree(tree), parents ?? (tip ? [tip] : []), message, time);
    await this.moveRef(`refs/heads/${branch}`, oid, b.take());
    return oid;
  }

  /** `count` commits in one write, each changing `files(i)`; returns their ids, oldest first. */
  async commits(branch: string, count: number, files: (i: number) => TreeSpec, time: number): Promise<string[]> {
    const b = new ObjectBuilder();
    let parent = await findRef(testDb().db, this.projectId, `refs/heads/${branch}`);
    const oids: string[] = [];
    for (let i = 0; i < count; i++) {
      parent = await b.commit(await b.tree(files(i)), parent ? [parent] : [], `Commit ${i}\n`, time + i * 60);
      oids.push(parent);
    }
    await this.moveRef(`refs/heads/${branch}`, parent!, b.take());
    return oids;
  }

  async branch(name: string, oid: string): Promise<void> {
    await this.moveRef(`refs/heads/${name}`, oid, []);
  }

  /** A lightweight tag, or an annotated one with `message`. */
  async tag(name: string, commit: string, message?: string): Promise<string> {
    if (message === undefined) {
      await this.moveRef(`refs/tags/${name}`, commit, []);
      return commit;
    }
    const body = encodeTag({
      object: commit,
      type: 'commit',
      tag: name,
      tagger: { name: 'T', email: 't@example.com', time: 1_700_000_000, tz: '+0000' },
      headers: [],
      message: new TextEncoder().encode(message),
    });
    const oid = await hashObject('tag', body);
    await this.moveRef(`refs/tags/${name}`, oid, [{ type: 'tag', body }]);
    return oid;
  }
}
