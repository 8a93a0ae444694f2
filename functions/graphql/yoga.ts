// The GraphQL server: graphql-yoga with the schema built once per isolate (on first use), GitLab's limits checked
// before execution, mutations refused to read-only tokens, errors masked as GitLab does. Hono mounts it (routes.ts).
import { getOperationAST, GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { scopeDecision } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { createGraphQLContext, type GraphQLContext } from './context.ts';
import { maskError, RESOURCE_ACCESS_ERROR } from './errors.ts';
import { typeDefs } from './generated.ts';
import { analyze, limitError, limitsFor, MAX_NESTING, MAX_QUERY_LENGTH, nestingDepth } from './limits.ts';
import { mergeResolvers } from './resolvers.ts';
import { executableSchema } from './schema.ts';

type ServerContext = { ctx: RequestContext };

/** Root fields of an operation, by response key (for nulling them all). */
const rootKeys = (op: OperationDefinitionNode) => op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : []));

/** The token scopes for this operation: a mutation writes (`read_api` tokens may not), anything else reads. */
const scopesAllow = (ctx: RequestContext, op: OperationDefinitionNode) =>
  scopeDecision(ctx.actor, op.operation === 'mutation' ? 'write' : 'read', { api: 'graphql' }).allowed;

const limits: Plugin<GraphQLContext> = {
  onParams({ params, setResult }) {
    if (typeof params.query !== 'string') return;
    if (params.query.length > MAX_QUERY_LENGTH) setResult({ errors: [new GraphQLError('Query too large')] });
    else if (nestingDepth(params.query) > MAX_NESTING) setResult({ errors: [new GraphQLError('Query too deeply nested')] });
  },
  onExecute({ args, setResultAndStopExecution }) {
    const context = args.contextValue as GraphQLContext;
    const op = getOperationAST(args.document, args.operationName);
    if (!op) return;
    // GitLab's caller_id for GraphQL (the metadata of jobs a mutation enqueues).
    context.ctx.callerId = `graphql:${op.name?.value ?? 'unknown'}`;
    const analysis = analyze(args.schema, args.document, op, (args.variableValues ?? {}) as Record<string, unknown>);
    const error = limitError(analysis, context.ctx.actor);
    if (error) {
      setResultAndStopExecution({ errors: [new GraphQLError(error)] });
      return;
    }
    context.complexity = { score: analysis.complexity, limit: limitsFor(context.ctx.actor).complexity };
    if (!scopesAllow(context.ctx, op)) {
      const keys = rootKeys(op);
      setResultAndStopExecution({
        data: Object.fromEntries(keys.map((k) => [k, null])),
        errors: keys.map((k) => new GraphQLError(RESOURCE_ACCESS_ERROR, { path: [k] })),
      });
    }
  },
};

/**
 * Execution errors masked here, where the request id is known (yoga's own masking has no context): GraphQL errors
 * pass, hidden resources read as the resource error, anything else is logged with the request id and masked.
 */
const masking: Plugin<GraphQLContext> = {
  onExecute({ args }) {
    const requestId = (args.contextValue as GraphQLContext).ctx.requestId;
    return {
      onExecuteDone({ result, setResult }) {
        if ('errors' in result && result.errors?.length) setResult({ ...result, errors: result.errors.map((e) => maskError(e, requestId)) });
      },
    };
  },
};

function build() {
  return createYoga<ServerContext, GraphQLContext>({
    // The SDL is fixed at build time and checked by tests/unit/graphql-schema.test.ts (validateSchema): a fresh
    // isolate skips the checks on its first GraphQL request (cold start).
    schema: executableSchema(typeDefs, mergeResolvers() as Record<string, unknown>),
    graphqlEndpoint: '/api/graphql',
    landingPage: false,
    graphiql: false,
    // CORS is the app's (one policy for /api/*).
    cors: false,
    batching: { limit: 10 },
    context: ({ ctx }) => ({ ...createGraphQLContext(ctx), complexity: { score: 0, limit: limitsFor(ctx.actor).complexity } }),
    maskedErrors: false,
    plugins: [limits, masking],
  });
}

let yoga: ReturnType<typeof build> | undefined;

/** The isolate's one server (built on first use: no work at module load on Workers). */
export const graphqlServer = () => (yoga ??= build());
