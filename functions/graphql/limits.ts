// GitLab's query limits (app/graphql/gitlab_schema.rb with graphql-ruby's analyzers), computed from the document and
// its variables before any resolver runs: depth 15 anonymous / 20 signed in; complexity 200 / 250 / 300 (admins);
// query text at most 10,000 characters. The complexity model is GitLab's base_field.rb: every field costs 1 plus its
// children; a field with arguments adds 1 for `sort` and 5 for `search`; a connection then multiplies by
// (1 + page size * 0.01), page size = min(first, last, 100), except when it selects by `iid`/`iids`. Introspection
// counts toward depth but costs 1.
import {
  getArgumentValues,
  getNamedType,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Actor } from '../lib/context.ts';
import { isAdministrator } from '../lib/policy.ts';
import { MAX_PAGE_SIZE } from './connection.ts';

export const MAX_QUERY_LENGTH = 10_000;

/**
 * Brackets open at once (`{`, `[`, `(`): graphql-js parses recursively, and a 2,000-deep list literal fits in 10,000
 * characters yet overflows the stack. No query GitLab serves nests half as deep (depth is at most 20 fields); the
 * text is refused before it is parsed. graphql-ruby's parser has no such limit (it is not recursive): the wording is ours.
 */
export const MAX_NESTING = 100;

/** The deepest bracket nesting of a GraphQL document, outside strings, block strings and comments. */
export function nestingDepth(query: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < query.length; i++) {
    const ch = query[i];
    if (ch === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (ch === '"') {
      if (query.startsWith('"""', i)) {
        const end = query.indexOf('"""', i + 3);
        i = end < 0 ? query.length : end + 2;
      } else {
        for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
      }
    } else if (ch === '{' || ch === '[' || ch === '(') {
      if (++depth > max) max = depth;
    } else if (ch === '}' || ch === ']' || ch === ')') depth--;
  }
  return max;
}

export const limitsFor = (actor: Actor) => ({
  depth: actor.user ? 20 : 15,
  complexity: isAdministrator(actor) ? 300 : actor.user ? 250 : 200,
});

export interface Analysis {
  depth: number;
  complexity: number;
}

const isConnection = (typeName: string) => typeName.endsWith('Connection');

/** Depth and complexity of one operation (fragments inlined; abstract selections cost their widest branch). */
export function analyze(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): Analysis {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return { depth: 0, complexity: 0 };

  function walk(set: SelectionSetNode, parent: GraphQLCompositeType, seen: ReadonlySet<string>): Analysis {
    let depth = 0;
    let complexity = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name === '__typename') continue;
        const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
        const def = name === '__schema' || name === '__type' ? undefined : fields[name];
        const introspection = name.startsWith('__');
        const type = def ? getNamedType(def.type) : introspection ? (schema.getType(name === '__schema' ? '__Schema' : '__Type') ?? null) : null;
        const child = sel.selectionSet && type && isCompositeType(type) ? walk(sel.selectionSet, type, seen) : { depth: 0, complexity: 0 };
        let args: Record<string, unknown> = {};
        try {
          args = def ? getArgumentValues(def, sel, variables) : {};
        } catch {
          args = {}; // invalid arguments are the validator's to report
        }
        // Introspection is answered from memory: `__schema`/`__type` cost 1 whatever they select, so the standard
        // introspection query of every client (GraphiQL, codegen) fits the anonymous limit, as GitLab tuned it to.
        let cost = introspection ? 1 : child.complexity + 1;
        if (def?.args.length) cost += (args.sort !== undefined ? 1 : 0) + (args.search ? 5 : 0);
        if (type && isConnection(type.name) && args.iid === undefined && args.iids === undefined) {
          const size = Math.min(...[args.first, args.last, MAX_PAGE_SIZE].filter((v): v is number => typeof v === 'number'));
          cost += cost * Math.max(0, size) * 0.01;
        }
        complexity += Math.floor(cost);
        depth = Math.max(depth, child.depth + 1);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        const inner = walk(sel.selectionSet, cond && isCompositeType(cond) ? cond : parent, seen);
        complexity += inner.complexity;
        depth = Math.max(depth, inner.depth);
      } else {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue; // cycles are the validator's to report
        const cond = schema.getType(frag.typeCondition.name.value);
        const inner = walk(frag.selectionSet, cond && isCompositeType(cond) ? cond : parent, new Set([...seen, frag.name.value]));
        complexity += inner.complexity;
        depth = Math.max(depth, inner.depth);
      }
    }
    return { depth, complexity };
  }
  return walk(operation.selectionSet, root, new Set());
}

/** The first limit the analysis breaks, in graphql-ruby's words, or null. */
export function limitError(a: Analysis, actor: Actor): string | null {
  const l = limitsFor(actor);
  if (a.depth > l.depth) return `Query has depth of ${a.depth}, which exceeds max depth of ${l.depth}`;
  if (a.complexity > l.complexity) return `Query has complexity of ${a.complexity}, which exceeds max complexity of ${l.complexity}`;
  return null;
}
