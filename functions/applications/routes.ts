// Admin REST API for OAuth applications (GitLab `lib/api/applications.rb`).
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { noStore } from '../lib/no-store.ts';
import { pageRequest, paginate } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { params, path, schema } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import { lookupId } from '../users/schemas.ts';
import { CreateApplicationInput, ListApplicationsInput, toApplication, toApplicationWithSecret } from './schemas.ts';
import * as applications from './service.ts';

export const applicationRoutes = new Hono<AppEnv>();
const ApplicationPath = schema(() => z.object({ id: lookupId() }));

applicationRoutes.post('/applications', noStore, adminOnly, params(CreateApplicationInput), async (c) => {
  const input = c.req.valid('query');
  const { row, secret } = await applications.createApplication({
    ctx: c.var.ctx,
    input: { name: input.name, redirectUri: input.redirect_uri, scopes: input.scopes, confidential: input.confidential },
  });
  return c.json(toApplicationWithSecret(row, secret), 201);
});

applicationRoutes.get('/applications', adminOnly, params(ListApplicationsInput), async (c) => {
  const input = c.req.valid('query');
  const { fetch, count } = applications.listAllApplications({ ctx: c.var.ctx, input });
  const rows = await paginate(c, pageRequest(input), fetch, count);
  return c.json(rows.map(toApplication));
});

applicationRoutes.delete('/applications/:id', adminOnly, path(ApplicationPath), async (c) => {
  await applications.deleteApplication({ ctx: c.var.ctx, input: c.req.valid('param') });
  return c.body(null, 204);
});
