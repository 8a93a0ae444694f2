// What GraphQL's alert integration types are resolved from: the integration with its project (and its token, in the
// payload of the create or reset that made it). schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL
// type <Type>.
import type { AlertIntegrationWithProject as AlertIntegrationModel } from './service.ts';

export type { AlertIntegrationModel };
export type AlertManagementIntegrationModel = AlertIntegrationModel;
export type AlertManagementHttpIntegrationModel = AlertIntegrationModel;
