// What GraphQL's Environment and MetricsDashboard types are resolved from: an environment with its project; a metrics
// dashboard is an environment's dashboard at a path. schema/codegen.ts maps each `<Type>Model` exported here to the
// GraphQL type <Type>.
export type { EnvironmentModel } from './service.ts';
export type { MetricsDashboardModel } from './dashboards.ts';
