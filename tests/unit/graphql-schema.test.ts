// functions/graphql/yoga.ts builds the schema with assumeValidSDL and assumeValid (no validation on a Worker's first
// GraphQL request): the validation it skips runs here, on the same SDL and resolvers, and functions/graphql/schema.ts
// (which sets the resolvers in place of @graphql-tools' makeExecutableSchema) is held to what makeExecutableSchema
// does: every resolver on its field, scalars' parsing on the schema's scalars, abstract types resolvable.
import { buildASTSchema, isInterfaceType, isObjectType, isScalarType, isUnionType, parse, validateSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/graphql/generated.ts';
import { mergeResolvers } from '../../functions/graphql/resolvers.ts';
import { executableSchema } from '../../functions/graphql/schema.ts';

describe('the GraphQL schema', () => {
  it('is valid SDL and a valid schema (what yoga.ts assumes)', () => {
    expect(validateSchema(buildASTSchema(parse(typeDefs)))).toEqual([]);
    expect(validateSchema(executableSchema(typeDefs, mergeResolvers() as Record<string, unknown>))).toEqual([]);
  });

  it('carries every resolver where makeExecutableSchema puts it', () => {
    const resolvers = mergeResolvers() as Record<string, Record<string, unknown>>;
    const ours = executableSchema(typeDefs, resolvers);
    const theirs = createSchema({ typeDefs, resolvers: mergeResolvers() as never });
    let checked = 0;
    for (const [typeName, fields] of Object.entries(resolvers)) {
      const a = ours.getType(typeName)!;
      const b = theirs.getType(typeName)!;
      if (isScalarType(a) && isScalarType(b)) {
        expect(a.parseValue).toBe((fields as unknown as typeof a).parseValue);
        expect(a.serialize).toBe((fields as unknown as typeof a).serialize);
        checked++;
        continue;
      }
      for (const name of Object.keys(fields)) {
        if (name === '__resolveType') {
          expect(isInterfaceType(a) || isUnionType(a)).toBe(true);
          expect((a as { resolveType?: unknown }).resolveType).toBe(fields[name]);
        } else if (isObjectType(a) && isObjectType(b)) {
          expect(a.getFields()[name]?.resolve, `${typeName}.${name}`).toBeTypeOf('function');
          expect(b.getFields()[name]?.resolve, `${typeName}.${name}`).toBeTypeOf('function');
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('refuses a resolver for a field the SDL does not define', () => {
    expect(() => executableSchema(typeDefs, { Query: { nosuchfield: () => null } })).toThrow(
      'resolver for Query.nosuchfield, a field the schema does not define',
    );
    expect(() => executableSchema(typeDefs, { NoSuchType: {} })).toThrow('resolvers for NoSuchType, a type the schema does not define');
  });
});
