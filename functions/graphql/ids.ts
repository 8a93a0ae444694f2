// Global ids (`gid://gitlab/<Model>/<id>`) and the typed id scalars (UserID, AwardableID, ...): each accepts only its
// own model classes, with GitLab's messages (`"x" is not a valid GitLab id.`, `... is not a valid id for User.`).
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const GID = /^gid:\/\/gitlab\/([A-Za-z][\w:]*)\/(\d+|[0-9a-f]{40})$/;

export interface GlobalId {
  type: string;
  /** Numeric for records; a 40-hex string for discussions. */
  id: number | string;
}

/**
 * An `iid: String` argument as a number: digits within PostgreSQL's integer, or null (nothing has that iid). The one
 * reading of every resolver's iid arguments.
 */
export const iidOf = (s: string): number | null => (/^\d{1,10}$/.test(s) && Number(s) <= 2_147_483_647 ? Number(s) : null);

export const toGlobalId = (type: string, id: number | string) => `gid://gitlab/${type}/${id}`;

export function parseGlobalId(value: string): GlobalId | null {
  const m = GID.exec(value);
  if (!m) return null;
  const id = /^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!;
  if (typeof id === 'number' && !(id >= 1 && id <= 2_147_483_647)) return null;
  return { type: m[1]!, id };
}

/** GitLab's parse_gid, for arguments typed `ID` that must hold one of `types`. */
export function expectGlobalId(value: string, types: readonly string[], expected = types[0]!): GlobalId {
  const gid = parseGlobalId(value);
  if (!gid) throw new GraphQLError(`${JSON.stringify(value)} is not a valid GitLab id.`);
  if (!types.includes(gid.type)) throw new GraphQLError(`${JSON.stringify(value)} is not a valid id for ${expected}.`);
  return gid;
}

/**
 * A typed GlobalID scalar. Input: a `gid://gitlab/<one of models>/<id>` string, parsed to `{ type, id }` (or to the
 * bare id when `bare`); anything else is a coercion error, so the operation fails validation before any resolver
 * runs. Output: a gid string from `{ type, id }` or a bare id of the first model.
 */
export function globalIdScalar(name: string, models: readonly string[], options: { bare?: boolean; description?: string } = {}) {
  const parse = (value: unknown) => {
    if (typeof value !== 'string') throw new GraphQLError(`${JSON.stringify(value)} is not a valid GitLab id.`);
    const gid = expectGlobalId(value, models, models.join(' or '));
    return options.bare ? gid.id : gid;
  };
  return new GraphQLScalarType({
    name,
    description: options.description ?? `Identifier of ${models.join(' or ')}`,
    serialize: (value) => {
      if (typeof value === 'string' && parseGlobalId(value)) return value;
      if (typeof value === 'number') return toGlobalId(models[0]!, value);
      const v = value as GlobalId;
      return toGlobalId(v.type, v.id);
    },
    parseValue: parse,
    parseLiteral: (ast: ValueNode) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${ast.kind === Kind.INT ? (ast as { value: string }).value : 'value'} is not a valid GitLab id.`);
      return parse(ast.value);
    },
  });
}
