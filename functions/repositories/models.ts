// What GraphQL's repository types are resolved from: reads.ts defines them next to the verbs that build them; a blob
// and a submodule are tree entries. schema/codegen.ts maps each `<Type>Model` exported here to the GraphQL type <Type>.
import type { TreeEntryModel } from './reads.ts';

export type { BranchModel, CommitModel, RepositoryModel, TreeModel } from './reads.ts';
export type { TreeEntryModel };
export type BlobModel = TreeEntryModel;
export type SubmoduleModel = TreeEntryModel;
