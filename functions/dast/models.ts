// What GraphQL's DAST profile types are resolved from: a profile row with its project. schema/codegen.ts maps each
// `<Type>Model` exported here to the GraphQL type <Type>.
export type { DastSiteProfileWithProject as DastSiteProfileModel, DastScannerProfileWithProject as DastScannerProfileModel } from './service.ts';
