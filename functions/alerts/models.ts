// What GraphQL's alert types are resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { AlertModel } from './service.ts';

export type { AlertModel };
export type AlertManagementAlertModel = AlertModel;
/** No metrics alert exists (AlertManagementAlert.metricsAlert is null). */
export type MetricsAlertModel = never;
