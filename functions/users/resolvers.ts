// GraphQL over the users domain: currentUser, user, users and the User type (13.6 shapes). Reads go through the same
// finders as REST; the policy answers userPermissions.
import { GraphQLError } from 'graphql';
import type { UserRow } from '../../db/schema/index.ts';
import { keysetConnection } from '../graphql/connection.ts';
import { orNull } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { expectGlobalId, toGlobalId } from '../graphql/ids.ts';
import { can } from '../lib/policy.ts';
import { avatarUrl, userWebUrl } from './schemas.ts';
import { usersPage } from './reads.ts';
import { findUser } from './service.ts';

export const userResolvers: Resolvers = {
  Query: {
    currentUser: (_root, _args, { ctx }) => ctx.actor.user,
    user: async (_root, args, { ctx }) => {
      if ((args.id == null) === (args.username == null)) throw new GraphQLError('Provide either a single username or id');
      return orNull(() => findUser(ctx, args.id != null ? { id: args.id } : { path: args.username! }));
    },
    users: (_root, args, { ctx }) => {
      const ids = args.ids?.map((gid) => expectGlobalId(gid, ['User']).id as number);
      // created_* and updated_* both page by id here: ids follow creation order.
      const order = /asc$/i.test(args.sort ?? 'created_desc') ? 'asc' : 'desc';
      const params = { search: args.search ?? undefined, ids, usernames: args.usernames ?? undefined };
      return keysetConnection<UserRow>(
        args,
        order,
        (u) => u.id,
        (page) => usersPage(ctx, params, page),
      );
    },
  },
  User: {
    id: (u) => toGlobalId('User', u.id),
    avatarUrl: (u, _a, { ctx }) => avatarUrl(ctx.config, u.avatarUrl),
    // 13.6 exposes the public email as `email`.
    email: (u) => u.publicEmail || null,
    publicEmail: (u) => u.publicEmail || null,
    webPath: (u) => `/${u.username}`,
    webUrl: (u, _a, { ctx }) => userWebUrl(ctx.config, u),
    userPermissions: (u, _a, { ctx }) => ({ createSnippet: can(ctx.actor, 'user:create_snippet', { kind: 'user', id: u.id, state: u.state }) }),
  },
};
