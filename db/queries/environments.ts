// Environments (GitLab 13.6 Environment, EnvironmentsFinder): a project's environments by name, prefix search and
// state; creation that reports a taken name or slug instead of failing; and the upsert a pipeline's jobs make.
import { and, asc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { environments, type EnvironmentRow } from '../schema/index.ts';
import { rows } from './lib/raw.ts';

export interface EnvironmentFilter {
  projectId: number;
  /** Exact name. */
  name?: string | undefined;
  /** Name prefix, any case (Environment.for_name_like: `name ILIKE 'search%'`). */
  search?: string | undefined;
  states?: readonly string[] | undefined;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** The name, search and state conditions, whichever projects they apply to. */
function matching(f: Omit<EnvironmentFilter, 'projectId'>): SQL | undefined {
  return and(
    f.name !== undefined ? eq(environments.name, f.name) : undefined,
    f.search !== undefined ? ilike(environments.name, `${escapeLike(f.search)}%`) : undefined,
    f.states ? inArray(environments.state, [...f.states] as EnvironmentRow['state'][]) : undefined,
  );
}

const environmentWhere = (f: EnvironmentFilter): SQL => and(eq(environments.projectId, f.projectId), matching(f))!;

/** A page of environments by id, with the filtered total (capped) computed in the same statement. */
export async function environmentPage(db: Db, f: EnvironmentFilter, o: { limit: number; offset: number; countCap: number }) {
  const where = environmentWhere(f);
  const list = await db
    .select({
      environment: environments,
      total: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM ${environments} WHERE ${where} LIMIT ${o.countCap + 1}) c)`.mapWith(Number),
    })
    .from(environments)
    .where(where)
    .orderBy(asc(environments.id))
    .limit(o.limit)
    .offset(o.offset);
  return { rows: list.map((r) => r.environment), total: list[0]?.total };
}

export async function countEnvironments(db: Db, f: EnvironmentFilter, cap: number): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM environments WHERE ${environmentWhere(f)} LIMIT ${cap + 1}) c`);
  return Number(row?.n ?? 0);
}

/** Every environment of these projects matching, by id (GraphQL's connections page them in memory: a project has few). */
export async function findEnvironmentsOfProjects(db: Db, projectIds: readonly number[], f: Omit<EnvironmentFilter, 'projectId'>): Promise<EnvironmentRow[]> {
  if (!projectIds.length) return [];
  return db
    .select()
    .from(environments)
    .where(and(inArray(environments.projectId, [...projectIds]), matching(f)))
    .orderBy(asc(environments.id));
}

export async function findEnvironment(db: Db, projectId: number, id: number): Promise<EnvironmentRow | undefined> {
  const [row] = await db
    .select()
    .from(environments)
    .where(and(eq(environments.projectId, projectId), eq(environments.id, id)));
  return row;
}

export async function findEnvironmentById(db: Db, id: number): Promise<EnvironmentRow | undefined> {
  const [row] = await db.select().from(environments).where(eq(environments.id, id));
  return row;
}

export async function findEnvironmentByName(db: Db, projectId: number, name: string): Promise<EnvironmentRow | undefined> {
  const [row] = await db
    .select()
    .from(environments)
    .where(and(eq(environments.projectId, projectId), eq(environments.name, name)));
  return row;
}

export type NewEnvironment = Pick<EnvironmentRow, 'projectId' | 'name' | 'slug' | 'externalUrl' | 'environmentType'>;

/** The new environment, or null when its name or slug is taken in the project (the unique keys decide, race-free). */
export async function insertEnvironment(db: Db, values: NewEnvironment): Promise<EnvironmentRow | null> {
  const [row] = await db.insert(environments).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Whether the name and the slug are taken by another environment of the project. */
export async function takenKeys(db: Db, projectId: number, keys: { name: string; slug?: string }, exceptId?: number) {
  const found = await db
    .select({ name: environments.name, slug: environments.slug })
    .from(environments)
    .where(
      and(
        eq(environments.projectId, projectId),
        keys.slug !== undefined ? sql`(${environments.name} = ${keys.name} OR ${environments.slug} = ${keys.slug})` : eq(environments.name, keys.name),
        exceptId !== undefined ? sql`${environments.id} <> ${exceptId}` : undefined,
      ),
    );
  return { name: found.some((r) => r.name === keys.name), slug: keys.slug !== undefined && found.some((r) => r.slug === keys.slug) };
}

/** The changed environment (a taken name raises the unique violation for the service to report). */
export async function updateEnvironment(
  db: Db,
  id: number,
  set: Partial<Pick<EnvironmentRow, 'name' | 'externalUrl' | 'environmentType'>>,
): Promise<EnvironmentRow | undefined> {
  const [row] = await db
    .update(environments)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(environments.id, id))
    .returning();
  return row;
}

/** Moves the environment to `state`; the row after (unchanged when it was there already). */
export async function setEnvironmentState(db: Db, id: number, state: EnvironmentRow['state']): Promise<EnvironmentRow | undefined> {
  const [row] = await db
    .update(environments)
    .set({ state, updatedAt: sql`CASE WHEN ${environments.state} = ${state} THEN ${environments.updatedAt} ELSE now() END` })
    .where(eq(environments.id, id))
    .returning();
  return row;
}

/** Deletes the environment if it is still stopped (a concurrent start keeps it); whether it went. */
export async function deleteStoppedEnvironment(db: Db, id: number): Promise<boolean> {
  const gone = await db
    .delete(environments)
    .where(and(eq(environments.id, id), eq(environments.state, 'stopped')))
    .returning({ id: environments.id });
  return gone.length > 0;
}
