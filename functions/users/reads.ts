// Batched user reads for GraphQL: users by id (authors, assignees, members' creators under a page) and the `users`
// connection, through the same list filter as GET /users (userListFilter).
import { findUsersByIds, listUsersPage } from '../../db/queries/users.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import type { KeysetPage } from '../lib/pagination.ts';
import { userListFilter } from './service.ts';

/** Users by id, in the order asked (null for ids no user has). */
export async function usersByIds(ctx: RequestContext, ids: readonly number[]): Promise<Array<UserRow | null>> {
  const found = new Map((await findUsersByIds(ctx.db, ids)).map((u) => [u.id, u]));
  return ids.map((id) => found.get(id) ?? null);
}

/** One keyset page of users (GraphQL's `users`): GET /users's filter for this caller, narrowed to ids/usernames. */
export function usersPage(
  ctx: RequestContext,
  params: { search?: string | undefined; ids?: number[] | undefined; usernames?: readonly string[] | undefined },
  page: KeysetPage,
) {
  const { ids, usernames, search } = params;
  return listUsersPage(ctx.db, { ...userListFilter(ctx, { search }), ids, usernames }, page);
}
