// REST: GET /events, /users/:id/events, /projects/:id/events (GitLab's API::Events and API::ProjectEvents).
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { requireUser } from '../lib/auth.ts';
import { projectRef, userRef } from '../lib/ids.ts';
import { assertOffsetWithinLimit, pageRequest, paginate, paginateKeyset } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { ListEventsInput, ListOwnEventsInput, toEvent, type ListEventsParams } from './schemas.ts';
import { listEvents, visibleToActor, type EventListing } from './service.ts';

export const eventRoutes = new Hono<AppEnv>();
const UserPath = schema(() => z.object({ id: userRef() }));
const ProjectPath = schema(() => z.object({ id: projectRef() }));

async function respond(c: Context<AppEnv>, listing: EventListing, input: ListEventsParams) {
  const { ctx } = c.var;
  // Events are a large table with keyset pagination: the same offset cap as GitLab's projects (GitLab itself pages
  // events by offset without a cap; the cap bounds what a deep offset page costs).
  if (input.pagination !== 'keyset') assertOffsetWithinLimit(c, input, 'Event');
  const list = listEvents({ ctx, input: { listing, params: input } });
  const rows = list.keyset
    ? await paginateKeyset(
        c,
        list.perPage,
        list.sort,
        (limit) => list.fetch(limit, 0),
        (r) => r.id,
      )
    : await paginate(c, pageRequest(input), list.fetch, list.count);
  return c.json(rows.filter((r) => visibleToActor(ctx, r)).map((r) => toEvent(r, ctx.config)));
}

// `authenticate!` comes before parameters are looked at.
eventRoutes.get(
  '/events',
  async (c, next) => {
    requireUser(c.var.ctx);
    await next();
  },
  params(ListOwnEventsInput),
  (c) => {
    const input = c.req.valid('query');
    return respond(c, { kind: 'own', scope: input.scope }, input);
  },
);

eventRoutes.get('/users/:id/events', path(UserPath), params(ListEventsInput), (c) =>
  respond(c, { kind: 'user', ref: c.req.valid('param').id }, c.req.valid('query')),
);

eventRoutes.get('/projects/:id/events', path(ProjectPath), params(ListEventsInput), (c) =>
  respond(c, { kind: 'project', ref: c.req.valid('param').id }, c.req.valid('query')),
);
