// GraphQL is assembled from what each domain exports (resolvers, per-request loaders, the models codegen maps), and
// each assembler refuses a name two domains claim: merged silently, the later would win.
import { describe, expect, it } from 'vitest';
import { assembleLoaders, createLoaders } from '../../functions/graphql/loaders.ts';
import { mergeResolvers } from '../../functions/graphql/resolvers.ts';
import type { RequestContext } from '../../functions/lib/context.ts';
import { mapperExports, schemaTypeNames } from '../../schema/mappers.ts';

describe('GraphQL assembly', () => {
  it('merges resolvers field by field, refusing a field two domains define', () => {
    const issueResolvers = { Noteable: { __resolveType: () => 'Issue' } };
    const mergeRequestResolvers = { Noteable: { __resolveType: () => 'MergeRequest' } };
    expect(() => mergeResolvers({ issueResolvers, mergeRequestResolvers } as never)).toThrow(
      'GraphQL resolvers: Noteable.__resolveType is defined by both issueResolvers and mergeRequestResolvers',
    );
    expect(() => mergeResolvers({ issueResolvers, noteResolvers: { Noteable: {} } } as never)).not.toThrow();
    expect(() => mergeResolvers()).not.toThrow();
  });

  it('assembles the loaders of every domain for one request, refusing a key two domains return', () => {
    const ctx = {} as RequestContext;
    expect(() => assembleLoaders(ctx, { userLoaders: () => ({ user: 1 }), repositoryLoaders: () => ({ tree: 2, user: 3 }) })).toThrow(
      'GraphQL loaders: user is returned by both userLoaders and repositoryLoaders',
    );
    const loaders = assembleLoaders(ctx, { a: () => ({ x: 1 }), b: () => ({ y: 'two' }) });
    expect(loaders).toEqual({ x: 1, y: 'two' });
    // Per request: each context gets loaders of its own (a DataLoader's cache must not outlive its request).
    const first = createLoaders(ctx);
    expect(Object.keys(first).length).toBeGreaterThan(50);
    expect(createLoaders(ctx).user).not.toBe(first.user);
  });

  it('maps each GraphQL type to the `<Type>Model` a domain exports, refusing a type two domains map', () => {
    const types = schemaTypeNames([
      'type Issue { id: ID }',
      'interface Entry { id: ID }',
      'type Blob implements Entry { id: ID }',
      'extend type Issue { t: String }',
    ]);
    expect([...types].sort()).toEqual(['Blob', 'Entry', 'Issue']);
    const issues = { path: '../issues/models.ts', text: 'export interface IssueModel { id: number }\nexport type WidgetModel = string;' };
    const repositories = {
      path: '../repositories/models.ts',
      text: "import type { EntryModel } from './reads.ts';\nexport type { EntryModel };\nexport type BlobModel = EntryModel;",
    };
    // A model declared as another of its file names that one; a model of no schema type maps nothing.
    expect(mapperExports([issues, repositories], types)).toEqual({
      Issue: '../issues/models.ts#IssueModel',
      Entry: '../repositories/models.ts#EntryModel',
      Blob: '../repositories/models.ts#EntryModel',
    });
    const epics = { path: '../epics/models.ts', text: "export type { IssueModel } from '../issues/models.ts';" };
    expect(() => mapperExports([issues, epics], types)).toThrow('GraphQL codegen: IssueModel is exported by both ../issues/models.ts and ../epics/models.ts');
  });
});
