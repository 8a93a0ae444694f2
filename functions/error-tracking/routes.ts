import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { projectRef } from '../lib/ids.ts';
import * as z from 'zod/mini';
import { parseParams, path, schema } from '../lib/validate.ts';
import { PatchSettingInput, PutSettingInput, toErrorTrackingSetting } from './schemas.ts';
import * as settings from './service.ts';

export const errorTrackingRoutes = new Hono<AppEnv>();
const ProjectPath = schema(() => z.object({ id: projectRef() }));
const SETTINGS = '/projects/:id/error_tracking/settings';

// Parameters are read after authorization (parseParams), not by a validator middleware: GitLab declares
// `authorize!` in a `before` block, which Grape runs ahead of parameter validation, so a developer sending a bad
// `active` gets 403 and a stranger 404, never a 400 that would confirm the project exists.

errorTrackingRoutes.get(SETTINGS, path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  const target = await settings.authorizeSettings(ctx, c.req.valid('param').id);
  return c.json(toErrorTrackingSetting(settings.getSetting({ ctx, input: { target } })));
});

errorTrackingRoutes.patch(SETTINGS, path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  const target = await settings.authorizeSettings(ctx, c.req.valid('param').id);
  const row = await settings.patchSetting({ ctx, input: { target, ...(await parseParams(c, PatchSettingInput())) } });
  return c.json(toErrorTrackingSetting(row));
});

errorTrackingRoutes.put(SETTINGS, path(ProjectPath), async (c) => {
  const { ctx } = c.var;
  const target = await settings.authorizeSettings(ctx, c.req.valid('param').id);
  const row = await settings.putSetting({ ctx, input: { target, ...(await parseParams(c, PutSettingInput())) } });
  return c.json(toErrorTrackingSetting(row));
});
