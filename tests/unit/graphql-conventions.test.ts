// GraphQL conventions as pure functions: global ids and typed id scalars, connection paging over loaded nodes (the
// same cursor codec and pageInfo rules as keyset pages), error masking, and GitLab's complexity formula.
import { buildSchema, GraphQLError, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { arrayConnection } from '../../functions/graphql/connection.ts';
import { maskError, RESOURCE_ACCESS_ERROR } from '../../functions/graphql/errors.ts';
import { expectGlobalId, globalIdScalar, parseGlobalId, toGlobalId } from '../../functions/graphql/ids.ts';
import { analyze } from '../../functions/graphql/limits.ts';
import { notFound, validationFailed } from '../../functions/lib/errors.ts';
import { decodeCursor, encodeCursor } from '../../functions/lib/pagination.ts';

describe('global ids', () => {
  it('round-trips and refuses other models with GitLab messages', () => {
    expect(toGlobalId('Issue', 7)).toBe('gid://gitlab/Issue/7');
    expect(parseGlobalId('gid://gitlab/Clusters::Agent/3')).toEqual({ type: 'Clusters::Agent', id: 3 });
    expect(parseGlobalId('gid://gitlab/Issue/99999999999')).toBeNull();
    expect(parseGlobalId('gid://gitlab/Issue/x')).toBeNull();
    expect(() => expectGlobalId('nope', ['User'])).toThrow('"nope" is not a valid GitLab id.');
    expect(() => expectGlobalId('gid://gitlab/Project/1', ['User'])).toThrow('"gid://gitlab/Project/1" is not a valid id for User.');
    const scalar = globalIdScalar('UserID', ['User'], { bare: true });
    expect(scalar.parseValue('gid://gitlab/User/5')).toBe(5);
    expect(scalar.serialize(5)).toBe('gid://gitlab/User/5');
    expect(() => scalar.parseValue(5)).toThrow('5 is not a valid GitLab id.');
  });
});

describe('connections', () => {
  const nodes = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));
  const ids = (c: ReturnType<typeof arrayConnection<{ id: number }>>) => c.nodes.map((n) => n.id);
  const cursor = (id: number) => encodeCursor({ id: String(id) });

  it('pages forwards and backwards with GitLab pageInfo; cursors are base64 JSON of the id', () => {
    expect(decodeCursor(cursor(3))).toEqual({ id: '3' });
    let c = arrayConnection(nodes, { first: 3 }, (n) => n.id);
    expect(ids(c)).toEqual([1, 2, 3]);
    expect(c.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: cursor(1), endCursor: cursor(3) });
    c = arrayConnection(nodes, { first: 3, after: c.pageInfo.endCursor }, (n) => n.id);
    expect(ids(c)).toEqual([4, 5, 6]);
    expect(c.pageInfo.hasPreviousPage).toBe(true);
    c = arrayConnection(nodes, { last: 2, before: cursor(4) }, (n) => n.id);
    expect(ids(c)).toEqual([2, 3]);
    expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    c = arrayConnection(nodes, { last: 2 }, (n) => n.id);
    expect(ids(c)).toEqual([6, 7]);
    expect(c.edges.map((e) => e.cursor)).toEqual([cursor(6), cursor(7)]);
  });

  it('clamps page sizes to 100 and refuses bad cursors and negative sizes', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ id: i + 1 }));
    expect(arrayConnection(many, { first: 500 }, (n) => n.id).nodes).toHaveLength(100);
    expect(arrayConnection(many, {}, (n) => n.id).nodes).toHaveLength(100);
    expect(() => arrayConnection(many, { after: 'not-a-cursor' }, (n) => n.id)).toThrow('Please provide a valid cursor');
    expect(() => arrayConnection(many, { first: -1 }, (n) => n.id)).toThrow(GraphQLError);
  });
});

describe('error masking', () => {
  it('hidden resources read as the resource error; refusals keep their message; unexpected errors are masked and logged with the request id', () => {
    const wrap = (original: Error) => new GraphQLError(original.message, { path: ['x'], originalError: original });
    expect(maskError(wrap(notFound('Project')), 'r1').message).toBe(RESOURCE_ACCESS_ERROR);
    expect(maskError(new GraphQLError('Provide either a single username or id'), 'r1').message).toBe('Provide either a single username or id');
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
    const errSpy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const masked = maskError(wrap(new Error('relation "x" does not exist at db.internal')), 'req-42');
    expect(masked.message).toBe('Internal server error');
    expect(masked.path).toEqual(['x']);
    const logged = [...spy.mock.calls, ...errSpy.mock.calls].map((c) => String(c[0])).join('\n');
    expect(logged).toContain('req-42');
    spy.mockRestore();
    errSpy.mockRestore();
    expect(maskError(wrap(validationFailed({ title: ["can't be blank"] })), 'r').message).toBe("Title can't be blank");
  });
});

describe('complexity (GitLab base_field.rb)', () => {
  const schema = buildSchema(`
    type Q { a: Int  thing(sort: String, search: String): T  things(first: Int, last: Int, iids: [String]): TConnection }
    type T { b: Int  c: Int }
    type TConnection { nodes: [T] }
    schema { query: Q }
  `);
  const score = (q: string, variables: Record<string, unknown> = {}) => {
    const doc = parse(q);
    return analyze(schema, doc, doc.definitions[0] as OperationDefinitionNode, variables);
  };

  it('1 per field plus children; sort +1, search +5; connections x (1 + page size / 100)', () => {
    expect(score('{ a }')).toEqual({ depth: 1, complexity: 1 });
    expect(score('{ thing { b c } }')).toEqual({ depth: 2, complexity: 3 });
    expect(score('{ thing(sort: "x", search: "y") { b } }').complexity).toBe(8);
    // (1 + nodes(1 + b)) = 3, x (1 + 100 * 0.01) = 6
    expect(score('{ things { nodes { b } } }').complexity).toBe(6);
    expect(score('query($n: Int) { things(first: $n) { nodes { b } } }', { n: 10 }).complexity).toBe(3);
    expect(score('{ things(iids: ["1"]) { nodes { b } } }').complexity).toBe(3);
    expect(score('{ ...F } fragment F on Q { thing { b } }')).toEqual({ depth: 2, complexity: 2 });
  });
});
