// What GraphQL's CI/CD types are resolved from: reads.ts defines most of them next to the verbs that build them.
// schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL type <Type>.
import type { Connection } from '../graphql/connection.ts';
import type { PipelineModel } from './reads.ts';

export type { CiGroupModel, CiJobArtifactModel, CiJobModel, CiStageModel } from './reads.ts';
export type { PipelineModel };
/** PipelineConnection: `count` over the whole filtered collection, computed only when asked. */
export type PipelineConnectionModel = Connection<PipelineModel> & { count: () => number | Promise<number> };
