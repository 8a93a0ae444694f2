// functions/graphql/yoga.ts builds the schema with assumeValidSDL and assumeValid (no validation on a Worker's first
// GraphQL request): the validation it skips runs here, on the same SDL and resolvers.
import { buildASTSchema, parse, validateSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/graphql/generated.ts';
import { mergeResolvers } from '../../functions/graphql/resolvers.ts';

describe('the GraphQL schema', () => {
  it('is valid SDL and a valid schema (what yoga.ts assumes)', () => {
    expect(validateSchema(buildASTSchema(parse(typeDefs)))).toEqual([]);
    expect(validateSchema(createSchema({ typeDefs, resolvers: mergeResolvers() as never }))).toEqual([]);
    expect(validateSchema(createSchema({ typeDefs, resolvers: mergeResolvers() as never, updateResolversInPlace: true }))).toEqual([]);
  });
});
