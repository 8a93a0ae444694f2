// Alert HTTP integrations (GitLab's AlertManagement::HttpIntegration): a project's endpoints for alert
// notifications, each with a token (stored as its SHA-256 digest) and an immutable endpoint identifier.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { alertIntegrations, type AlertIntegrationRow } from '../schema/index.ts';
import { batchRows } from './lib/raw.ts';

/** The lock class of a project's integrations while one is created (the second key is the project id). */
const ALERT_INTEGRATION_CREATE_LOCK = 13_609;

/** The integrations of each project, in id order (HttpIntegrationsFinder's order). */
export function integrationsOfProjects(db: Db, projectIds: readonly number[]): Promise<AlertIntegrationRow[]> {
  if (!projectIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(alertIntegrations)
    .where(inArray(alertIntegrations.projectId, [...projectIds]))
    .orderBy(asc(alertIntegrations.id));
}

export async function findAlertIntegration(db: Db, id: number): Promise<AlertIntegrationRow | undefined> {
  const [row] = await db.select().from(alertIntegrations).where(eq(alertIntegrations.id, id));
  return row;
}

/**
 * A new integration as a batch: under a per-project lock, so that where a project may have only one (`single`), two
 * concurrent creates cannot both find none. The last statement returns the row, or nothing when `single` refused it.
 */
export function insertAlertIntegrationStatements(
  db: Db,
  values: { projectId: number; name: string; active: boolean; tokenDigest: string; endpointIdentifier: string },
  single: boolean,
) {
  return [
    db.execute(sql`SELECT pg_advisory_xact_lock(${ALERT_INTEGRATION_CREATE_LOCK}::int, ${values.projectId}::int)`),
    db.execute(sql`INSERT INTO alert_management_http_integrations (project_id, name, active, token_digest, endpoint_identifier)
      SELECT ${values.projectId}, ${values.name}, ${values.active}, ${values.tokenDigest}, ${values.endpointIdentifier}
      WHERE NOT ${single}::boolean OR NOT EXISTS (SELECT 1 FROM alert_management_http_integrations WHERE project_id = ${values.projectId})
      RETURNING *`),
  ] as const;
}

type RawIntegration = {
  id: number;
  project_id: number;
  name: string;
  active: boolean;
  token_digest: string;
  endpoint_identifier: string;
  created_at: string | Date;
  updated_at: string | Date;
};

/** The row insertAlertIntegrationStatements' batch created, or undefined. */
export function insertedAlertIntegration(results: readonly unknown[]): AlertIntegrationRow | undefined {
  const [r] = batchRows<RawIntegration>(results[results.length - 1]);
  if (!r) return undefined;
  return {
    id: Number(r.id),
    projectId: Number(r.project_id),
    name: r.name,
    active: r.active,
    tokenDigest: r.token_digest,
    endpointIdentifier: r.endpoint_identifier,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The row after the change; undefined when it was deleted meanwhile. */
export async function updateAlertIntegration(db: Db, id: number, values: Partial<Pick<AlertIntegrationRow, 'name' | 'active' | 'tokenDigest'>>) {
  const [row] = await db
    .update(alertIntegrations)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(alertIntegrations.id, id))
    .returning();
  return row;
}

export async function deleteAlertIntegration(db: Db, id: number): Promise<void> {
  await db.delete(alertIntegrations).where(eq(alertIntegrations.id, id));
}
