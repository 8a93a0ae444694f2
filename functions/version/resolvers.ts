// GraphQL's metadata, echo and queryComplexity (the root fields that belong to no domain).
import type { Resolvers } from '../graphql/generated.ts';
import { GITLAB_VERSION } from './routes.ts';

export const versionResolvers: Resolvers = {
  Query: {
    metadata: () => ({ ...GITLAB_VERSION }),
    // Resolvers::EchoResolver: `"#{username.inspect} says: #{text}"`.
    echo: (_root, { text }, { ctx }) => `${ctx.actor.user ? JSON.stringify(ctx.actor.user.username) : 'nil'} says: ${text}`,
    queryComplexity: (_root, _args, { complexity }) => complexity,
  },
};
