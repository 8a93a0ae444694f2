// Alert fixtures: alerts are inserted as the notify endpoint stores them (the same iid counter), so these tests set
// what they need (status, severity, fingerprint, times) directly; plus a project with one member of each role.
import { nextIid } from '../../../db/queries/lib/internal-ids.ts';
import { alertAssignees, alerts, ALERT_SEVERITIES, ALERT_STATUSES, type AlertSeverity, type AlertStatus } from '../../../db/schema/index.ts';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser, unique } from '../../factories/users.ts';
import { request, testDb } from '../../helpers/app.ts';

export const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

export const gql = (query: string, token: string | undefined, variables: Record<string, unknown> = {}) =>
  request('POST', '/api/graphql', { token, body: { query, variables } });

export interface AlertOptions {
  title?: string;
  description?: string | null;
  service?: string | null;
  monitoringTool?: string | null;
  hosts?: string[];
  severity?: AlertSeverity;
  status?: AlertStatus;
  fingerprint?: string | null;
  events?: number;
  startedAt?: Date;
  endedAt?: Date | null;
  createdAt?: Date;
  updatedAt?: Date;
  payload?: Record<string, unknown>;
  assigneeIds?: number[];
}

export async function createAlert(projectId: number, o: AlertOptions = {}) {
  const db = testDb();
  return db.transaction(async (tx) => {
    const iid = await nextIid(tx, 'alert_management_alerts', { projectId });
    const status = o.status ?? 'triggered';
    const [row] = await tx
      .insert(alerts)
      .values({
        projectId,
        iid,
        title: o.title ?? unique('Alert '),
        description: o.description ?? null,
        service: o.service ?? null,
        monitoringTool: o.monitoringTool ?? null,
        hosts: o.hosts ?? [],
        severity: ALERT_SEVERITIES.indexOf(o.severity ?? 'critical'),
        status: ALERT_STATUSES.indexOf(status),
        fingerprint: o.fingerprint ?? null,
        events: o.events ?? 1,
        startedAt: o.startedAt ?? new Date('2026-11-20T08:03:00Z'),
        endedAt: o.endedAt !== undefined ? o.endedAt : status === 'resolved' ? new Date() : null,
        payload: o.payload ?? {},
        ...(o.createdAt ? { createdAt: o.createdAt } : {}),
        ...(o.updatedAt ? { updatedAt: o.updatedAt } : {}),
      })
      .returning();
    if (o.assigneeIds?.length) await tx.insert(alertAssignees).values(o.assigneeIds.map((userId) => ({ alertId: row!.id, userId })));
    return row!;
  });
}

/** A private project with an owner and one member of each other role (guest, reporter, developer, maintainer). */
export async function alertProject() {
  const owner = await createUser();
  const project = await createProject(owner.token);
  const role = async (level: number) => {
    const u = await createUser();
    await addMember(owner.token, 'projects', project.id, u.user.id, level);
    return u;
  };
  const [guest, reporter, developer, maintainer] = await Promise.all([role(10), role(20), role(30), role(40)]);
  const outsider = await createUser();
  return { owner, project, path: project.path_with_namespace as string, guest, reporter, developer, maintainer, outsider };
}
