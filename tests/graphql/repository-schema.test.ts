// The repository slice of the served schema (introspected over HTTP) against the spec (../shared/spec/graphql.md)
// and the 13.6 SDL: Commit, Branch, Blob's siblings, Repository and Tree, CommitAction, and the commitCreate and
// createBranch inputs and payloads, each field with its exact type.
import { buildClientSchema, getIntrospectionQuery, isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { gql } from './helpers.ts';

let schema: GraphQLSchema;
beforeAll(async () => {
  const res = await gql(getIntrospectionQuery());
  expect(res.body.errors).toBeUndefined();
  schema = buildClientSchema(res.body.data);
});

const PAGING = { after: 'String', before: 'String', first: 'Int', last: 'Int' };
const ENTRY = { flatPath: 'String!', id: 'ID!', name: 'String!', path: 'String!', sha: 'String!', type: 'EntryType!' };

const OBJECTS: Record<string, Record<string, string | [string, Record<string, string>]>> = {
  Commit: {
    author: 'User',
    authorAvatar: 'String',
    authorName: 'String',
    authoredDate: 'Time',
    description: 'String',
    descriptionHtml: 'String',
    id: 'ID!',
    latestPipeline: ['Pipeline', { ref: 'String', sha: 'String', status: 'PipelineStatusEnum' }],
    message: 'String',
    pipelines: ['PipelineConnection', { ...PAGING, ref: 'String', sha: 'String', status: 'PipelineStatusEnum' }],
    sha: 'String!',
    signatureHtml: 'String',
    title: 'String',
    titleHtml: 'String',
    webPath: 'String!',
    webUrl: 'String!',
  },
  Branch: { commit: 'Commit', name: 'String!' },
  Project: { repository: 'Repository' },
  Repository: { empty: 'Boolean!', exists: 'Boolean!', rootRef: 'String', tree: ['Tree', { path: 'String', ref: 'String', recursive: 'Boolean' }] },
  Tree: {
    lastCommit: 'Commit',
    trees: ['TreeEntryConnection!', PAGING],
    blobs: ['BlobConnection!', PAGING],
    submodules: ['SubmoduleConnection!', PAGING],
  },
  TreeEntry: { ...ENTRY, webPath: 'String', webUrl: 'String' },
  Submodule: { ...ENTRY, treeUrl: 'String', webUrl: 'String' },
  PipelineConnection: { count: 'Int!' },
};

const INPUTS: Record<string, Record<string, string>> = {
  CommitAction: {
    action: 'CommitActionMode!',
    content: 'String',
    encoding: 'CommitEncoding',
    executeFilemode: 'Boolean',
    filePath: 'String!',
    lastCommitId: 'String',
    previousPath: 'String',
  },
  CommitCreateInput: {
    actions: '[CommitAction!]!',
    branch: 'String!',
    message: 'String!',
    projectPath: 'ID!',
    startBranch: 'String',
    clientMutationId: 'String',
  },
  CreateBranchInput: { name: 'String!', projectPath: 'ID!', ref: 'String!', clientMutationId: 'String' },
};

describe('the repository slice of the schema', () => {
  it('object types: fields, arguments and their types', () => {
    for (const [name, fields] of Object.entries(OBJECTS)) {
      const type = schema.getType(name);
      expect(isObjectType(type), name).toBe(true);
      if (!isObjectType(type)) continue;
      for (const [field, spec] of Object.entries(fields)) {
        const [want, args] = typeof spec === 'string' ? [spec, {}] : spec;
        const f = type.getFields()[field];
        expect(String(f?.type), `${name}.${field}`).toBe(want);
        for (const [arg, argType] of Object.entries(args)) expect(String(f!.args.find((a) => a.name === arg)?.type), `${name}.${field}(${arg})`).toBe(argType);
      }
    }
    for (const name of ['TreeEntry', 'Submodule', 'Blob'])
      expect(
        (schema.getType(name) as any).getInterfaces().map((i: any) => i.name),
        name,
      ).toEqual(['Entry']);
    expect((schema.getType('Commit') as any).getFields().latestPipeline.deprecationReason).toBe('Use `pipelines`. Deprecated in 12.5.');
    // The spec names the avatar field `authorAvatar`, in place of 13.6's vendor-named one.
    expect((schema.getType('Commit') as any).getFields().authorGravatar).toBeUndefined();
    const tree = (schema.getType('Repository') as any).getFields().tree;
    expect(Object.fromEntries(tree.args.map((a: any) => [a.name, a.defaultValue]))).toEqual({ path: '', ref: 'head', recursive: false });
  });

  it('inputs and the mutations with their payloads', () => {
    for (const [name, fields] of Object.entries(INPUTS)) {
      const type = schema.getType(name);
      expect(isInputObjectType(type), name).toBe(true);
      if (isInputObjectType(type)) expect(Object.fromEntries(Object.entries(type.getFields()).map(([k, f]) => [k, String(f.type)])), name).toEqual(fields);
    }
    const root = schema.getMutationType()!.getFields();
    expect(String(root.commitCreate?.args[0]?.type)).toBe('CommitCreateInput!');
    expect(String(root.commitCreate?.type)).toBe('CommitCreatePayload');
    expect(String(root.createBranch?.args[0]?.type)).toBe('CreateBranchInput!');
    expect(String(root.createBranch?.type)).toBe('CreateBranchPayload');
    const fields = (name: string) =>
      Object.fromEntries(Object.entries((schema.getType(name) as any).getFields()).map(([k, f]: [string, any]) => [k, String(f.type)]));
    expect(fields('CommitCreatePayload')).toEqual({ clientMutationId: 'String', commit: 'Commit', errors: '[String!]!' });
    expect(fields('CreateBranchPayload')).toEqual({ branch: 'Branch', clientMutationId: 'String', errors: '[String!]!' });
  });
});
