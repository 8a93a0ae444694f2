// Runners (ci_runners): lookup by token digest for the runner API, by id for the Job entity, registration.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ciRunnerProjects, ciRunners, type RunnerRow } from '../schema/index.ts';

export async function findRunnersByIds(db: Db, ids: readonly number[]): Promise<RunnerRow[]> {
  if (!ids.length) return [];
  return db.select().from(ciRunners).where(inArray(ciRunners.id, [...ids]));
}

export async function findRunnerByTokenDigest(db: Db, digest: string): Promise<RunnerRow | undefined> {
  const [row] = await db.select().from(ciRunners).where(eq(ciRunners.tokenDigest, digest));
  return row;
}

export { ciRunnerProjects };
