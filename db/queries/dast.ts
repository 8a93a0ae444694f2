// DAST site and scanner profiles (GitLab's DastSiteProfile, DastScannerProfile). A name is unique per project: the
// unique keys decide, race-free (an insert that loses answers undefined; an update that would collide, 'taken').
// A project's profiles are read for many projects in one statement (GraphQL's loaders), by id as GitLab's finders.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { dastScannerProfiles, dastSiteProfiles, type DastScannerProfileRow, type DastSiteProfileRow } from '../schema/index.ts';

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (e: unknown) =>
  (e as { code?: string }).code === UNIQUE_VIOLATION || (e as { cause?: { code?: string } }).cause?.code === UNIQUE_VIOLATION;

export type SiteProfileValues = { name: string; targetUrl: string };
export type ScannerProfileValues = Pick<DastScannerProfileRow, 'name' | 'spiderTimeout' | 'targetTimeout' | 'scanType' | 'useAjaxSpider' | 'showDebugMessages'>;

export async function insertDastSiteProfile(db: Db, values: SiteProfileValues & { projectId: number }): Promise<DastSiteProfileRow | undefined> {
  const [row] = await db
    .insert(dastSiteProfiles)
    .values(values)
    .onConflictDoNothing({ target: [dastSiteProfiles.projectId, dastSiteProfiles.name] })
    .returning();
  return row;
}

/** The updated profile; undefined when it is gone; 'taken' when another profile of the project has the name. */
export async function updateDastSiteProfile(
  db: Db,
  projectId: number,
  id: number,
  values: SiteProfileValues,
): Promise<DastSiteProfileRow | 'taken' | undefined> {
  try {
    const [row] = await db
      .update(dastSiteProfiles)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(dastSiteProfiles.projectId, projectId), eq(dastSiteProfiles.id, id)))
      .returning();
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) return 'taken';
    throw e;
  }
}

/** Whether a profile of the project was deleted. */
export async function deleteDastSiteProfile(db: Db, projectId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(dastSiteProfiles)
    .where(and(eq(dastSiteProfiles.projectId, projectId), eq(dastSiteProfiles.id, id)))
    .returning({ id: dastSiteProfiles.id });
  return rows.length > 0;
}

export async function findDastSiteProfile(db: Db, projectId: number, id: number): Promise<DastSiteProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(dastSiteProfiles)
    .where(and(eq(dastSiteProfiles.projectId, projectId), eq(dastSiteProfiles.id, id)));
  return row;
}

export function dastSiteProfilesOfProjects(db: Db, projectIds: readonly number[]): Promise<DastSiteProfileRow[]> {
  if (!projectIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(dastSiteProfiles)
    .where(inArray(dastSiteProfiles.projectId, [...projectIds]))
    .orderBy(asc(dastSiteProfiles.id));
}

export async function insertDastScannerProfile(db: Db, values: ScannerProfileValues & { projectId: number }): Promise<DastScannerProfileRow | undefined> {
  const [row] = await db
    .insert(dastScannerProfiles)
    .values(values)
    .onConflictDoNothing({ target: [dastScannerProfiles.projectId, dastScannerProfiles.name] })
    .returning();
  return row;
}

/** The updated profile; undefined when it is gone; 'taken' when another profile of the project has the name. */
export async function updateDastScannerProfile(
  db: Db,
  projectId: number,
  id: number,
  values: Partial<ScannerProfileValues>,
): Promise<DastScannerProfileRow | 'taken' | undefined> {
  try {
    const [row] = await db
      .update(dastScannerProfiles)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(dastScannerProfiles.projectId, projectId), eq(dastScannerProfiles.id, id)))
      .returning();
    return row;
  } catch (e) {
    if (isUniqueViolation(e)) return 'taken';
    throw e;
  }
}

export async function deleteDastScannerProfile(db: Db, projectId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(dastScannerProfiles)
    .where(and(eq(dastScannerProfiles.projectId, projectId), eq(dastScannerProfiles.id, id)))
    .returning({ id: dastScannerProfiles.id });
  return rows.length > 0;
}

export async function findDastScannerProfile(db: Db, projectId: number, id: number): Promise<DastScannerProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(dastScannerProfiles)
    .where(and(eq(dastScannerProfiles.projectId, projectId), eq(dastScannerProfiles.id, id)));
  return row;
}

export function dastScannerProfilesOfProjects(db: Db, projectIds: readonly number[]): Promise<DastScannerProfileRow[]> {
  if (!projectIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(dastScannerProfiles)
    .where(inArray(dastScannerProfiles.projectId, [...projectIds]))
    .orderBy(asc(dastScannerProfiles.id));
}
