// What GraphQL's MetricsDashboardAnnotation type is resolved from: the annotation rows. schema/codegen.ts maps each
// `<Type>Model` exported here to the GraphQL type <Type>.
export type { AnnotationModel as MetricsDashboardAnnotationModel } from './service.ts';
