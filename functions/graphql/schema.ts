// The executable schema: graphql-js builds the SDL, and the merged resolvers are set on it in place.
//
// This replaces graphql-yoga's createSchema (@graphql-tools/schema's makeExecutableSchema). We need none of what it
// adds on top of graphql-js (schema transforms, resolver validation options, directive mapping), and it brought
// about 105 KiB of the Worker bundle (@graphql-tools/schema and /merge with their own copies of
// @graphql-tools/utils): every isolate compiles those bytes at start, GraphQL request or not (issue 13).
// tests/unit/graphql-schema.test.ts holds the schema to graphql-js's validateSchema and checks that every resolver
// found its field.
import {
  buildASTSchema,
  type GraphQLFieldResolver,
  type GraphQLIsTypeOfFn,
  type GraphQLScalarType,
  type GraphQLTypeResolver,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  parse,
} from 'graphql';

type FieldResolvers = Record<string, GraphQLFieldResolver<unknown, unknown> | { resolve?: GraphQLFieldResolver<unknown, unknown> } | undefined>;

/**
 * `typeDefs` built without validation (the SDL is generated and validated by the tests, not per isolate), with
 * `resolvers` (GraphQL Tools' map: type -> field -> resolver, `__resolveType`/`__isTypeOf`, scalars as
 * GraphQLScalarType) set on its types. A resolver for a type or field the schema lacks is a programming error.
 */
export function executableSchema(typeDefs: string, resolvers: Record<string, unknown>) {
  const schema = buildASTSchema(parse(typeDefs, { noLocation: true }), { assumeValidSDL: true, assumeValid: true });
  for (const [typeName, value] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!type) throw new Error(`resolvers for ${typeName}, a type the schema does not define`);
    if (isScalarType(type)) {
      const scalar = value as GraphQLScalarType;
      Object.assign(type, { serialize: scalar.serialize, parseValue: scalar.parseValue, parseLiteral: scalar.parseLiteral });
      continue;
    }
    if (!isObjectType(type) && !isInterfaceType(type) && !isUnionType(type)) throw new Error(`resolvers for ${typeName}, which takes none`);
    for (const [name, resolver] of Object.entries(value as FieldResolvers)) {
      if (resolver === undefined) continue;
      if (name === '__resolveType') {
        if (isObjectType(type)) throw new Error(`${typeName}.__resolveType: an object type is resolved by itself`);
        type.resolveType = resolver as GraphQLTypeResolver<unknown, unknown>;
        continue;
      }
      if (name === '__isTypeOf') {
        if (!isObjectType(type)) throw new Error(`${typeName}.__isTypeOf: only object types have it`);
        type.isTypeOf = resolver as GraphQLIsTypeOfFn<unknown, unknown>;
        continue;
      }
      if (isUnionType(type)) throw new Error(`${typeName}.${name}: a union has no fields`);
      const field = type.getFields()[name];
      if (!field) throw new Error(`resolver for ${typeName}.${name}, a field the schema does not define`);
      field.resolve = typeof resolver === 'function' ? resolver : resolver.resolve;
    }
  }
  return schema;
}
