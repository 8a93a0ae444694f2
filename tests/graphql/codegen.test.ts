// The generated module (functions/graphql/generated.ts: resolver types and the SDL the server runs) is current:
// schema/*.graphql changed without `npm run graphql:codegen` fails here (and resolvers that drift fail the typecheck).
import { readdirSync, readFileSync } from 'node:fs';
import { mergeTypeDefs } from '@graphql-tools/merge';
import { buildASTSchema, buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/graphql/generated.ts';

describe('GraphQL codegen', () => {
  it('generated.ts holds the schema of schema/*.graphql', () => {
    const files = readdirSync('schema')
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => readFileSync(`schema/${f}`, 'utf8'));
    const fromFiles = printSchema(lexicographicSortSchema(buildASTSchema(mergeTypeDefs(files, { convertExtensions: true }))));
    expect(printSchema(lexicographicSortSchema(buildSchema(typeDefs)))).toBe(fromFiles);
  });
});
