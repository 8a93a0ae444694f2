// Which metrics dashboards an environment has (GitLab 13.6 Gitlab::Metrics::Dashboard::Finder as
// PerformanceMonitoring::PrometheusDashboard.find_for uses it): the system dashboards every environment has, and the
// project's own `.gitlab/dashboards/*.yml` on the default branch.
import { readPath } from '../repositories/lookups.ts';
import { GIT_OBJECT_TYPES } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import type { EnvironmentModel } from './service.ts';

/** SystemDashboardService and PodDashboardService paths (the self-monitoring and cluster ones belong elsewhere). */
const SYSTEM_DASHBOARDS = new Set(['config/prometheus/common_metrics.yml', 'config/prometheus/pod_metrics.yml']);
/** CustomDashboardService: a YAML file directly in `.gitlab/dashboards`. */
const CUSTOM_DASHBOARD = /^\.gitlab\/dashboards\/[^/]+\.yml$/;

/** Whether the environment's project has a dashboard at `path`. */
export async function dashboardExists(ctx: Pick<RequestContext, 'db'>, e: EnvironmentModel, path: string): Promise<boolean> {
  if (SYSTEM_DASHBOARDS.has(path)) return true;
  const branch = e.project.repository.empty ? null : e.project.repository.defaultBranch;
  if (!CUSTOM_DASHBOARD.test(path) || !branch) return false;
  const found = await readPath(ctx.db, { projectId: e.project.project.id, rev: branch, path, withData: false });
  return found?.oid !== undefined && found.type === GIT_OBJECT_TYPES.blob;
}

/** A dashboard of an environment: GraphQL's MetricsDashboard. */
export interface MetricsDashboardModel {
  environment: EnvironmentModel;
  path: string;
}

/** Environment.metricsDashboard(path): the dashboard, or null where the project has none at that path. */
export async function metricsDashboard(ctx: Pick<RequestContext, 'db'>, e: EnvironmentModel, path: string): Promise<MetricsDashboardModel | null> {
  return (await dashboardExists(ctx, e, path)) ? { environment: e, path } : null;
}
