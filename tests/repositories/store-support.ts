// Support for the store tests: a Database on the test database whose figures the test reads (DbStats, as the app
// reports them in Server-Timing), projects with an empty repository, and small builders of git objects.
import { sql } from 'drizzle-orm';
import type { Database, DbStats } from '../../db/client.ts';
import { findRepository } from '../../db/queries/repositories/refs.ts';
import { rows } from '../../db/queries/lib/raw.ts';
import { encodeCommit, type Signature } from '../../functions/repositories/git/commit.ts';
import { encodeTree, type TreeEntry } from '../../functions/repositories/git/tree.ts';
import { hashObject } from '../../functions/repositories/git/oid.ts';
import type { GitObject } from '../../functions/repositories/store/store.ts';
import { createProject } from '../factories/projects.ts';
import { createUser } from '../factories/users.ts';
import { testDb } from '../helpers/app.ts';

/** A Database on the test app's database, counting into `stats`. */
export function countedDatabase(): { database: Database; stats: DbStats } {
  const stats: DbStats = { queries: 0, ms: 0, roundTrips: 0 };
  return { database: testDb(stats), stats };
}

/** Runs `fn` and returns what it answered with the statements and round trips it cost. */
export async function measured<T>(fn: (database: Database) => Promise<T>): Promise<{ result: T; queries: number; roundTrips: number }> {
  const { database, stats } = countedDatabase();
  const result = await fn(database);
  return { result, queries: stats.queries, roundTrips: stats.roundTrips ?? 0 };
}

/** A user's new project (through the API, as every project is made) with an empty repository of its own. */
export async function projectWithRepository(): Promise<{ projectId: number; poolId: number; token: string }> {
  const { token } = await createUser();
  const project = await createProject(token);
  // Creating a project creates its repository (functions/projects/service.ts); the store writes into its pool.
  const repository = await findRepository(testDb().db, project.id);
  return { projectId: project.id, poolId: repository!.poolId, token };
}

export async function count(table: string, where: string): Promise<number> {
  const [row] = await rows<{ n: number }>(testDb().db, sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`));
  return Number(row!.n);
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Builds objects as a client would: blobs, trees from nested plain objects, commits. Collects what it built. */
export class ObjectBuilder {
  readonly objects: GitObject[] = [];

  async blob(text: string | Uint8Array): Promise<string> {
    const body = typeof text === 'string' ? utf8(text) : text;
    this.objects.push({ type: 'blob', body });
    return hashObject('blob', body);
  }

  /** A tree from `{ name: 'file text' | subtree | { mode, oid } }`. */
  async tree(spec: TreeSpec): Promise<string> {
    const entries: TreeEntry[] = [];
    for (const [name, value] of Object.entries(spec)) {
      if (typeof value === 'string') entries.push({ mode: '100644', name: utf8(name), oid: await this.blob(value) });
      else if ('mode' in value && typeof value.mode === 'string') entries.push({ mode: value.mode, name: utf8(name), oid: value.oid as string });
      else entries.push({ mode: '40000', name: utf8(name), oid: await this.tree(value as TreeSpec) });
    }
    const body = encodeTree(entries);
    this.objects.push({ type: 'tree', body });
    return hashObject('tree', body);
  }

  async commit(tree: string, parents: string[], message: string, time: number): Promise<string> {
    const who: Signature = { name: 'Ada Lovelace', email: 'ada@example.com', time, tz: '+0100' };
    const body = encodeCommit({ tree, parents, author: who, committer: who, headers: [], message: utf8(message) });
    this.objects.push({ type: 'commit', body });
    return hashObject('commit', body);
  }

  /** The objects built so far, and forgets them (the next write starts empty). */
  take(): GitObject[] {
    return this.objects.splice(0);
  }
}

export interface TreeSpec {
  [name: string]: string | TreeSpec | { mode: string; oid: string };
}

/** `{ a: { b: ... { [leaf]: text } } }` nested `depth` directories deep, named d1..dN. */
export function nested(depth: number, leaf: string, text: string): TreeSpec {
  let spec: TreeSpec = { [leaf]: text };
  for (let i = depth; i >= 1; i--) spec = { [`d${i}`]: spec };
  return spec;
}
