import { Hono } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { NO_STORE } from '../lib/no-store.ts';
import { params } from '../lib/validate.ts';
import { adminOnly } from '../users/admin-only.ts';
import { toApplicationSettings, toApplicationStatistics, UpdateSettingsInput } from './schemas.ts';
import * as settings from './service.ts';

export const applicationSettingRoutes = new Hono<AppEnv>();

// The settings carry secrets (API keys of other services): never cached.
applicationSettingRoutes.get('/application/settings', adminOnly, async (c) =>
  c.json(toApplicationSettings(await settings.getApplicationSettings({ ctx: c.var.ctx, input: undefined })), 200, NO_STORE),
);

applicationSettingRoutes.put('/application/settings', adminOnly, params(UpdateSettingsInput), async (c) =>
  c.json(toApplicationSettings(await settings.updateApplicationSettings({ ctx: c.var.ctx, input: c.req.valid('query') })), 200, NO_STORE),
);

applicationSettingRoutes.get('/application/statistics', adminOnly, async (c) =>
  c.json(toApplicationStatistics(await settings.applicationStatistics({ ctx: c.var.ctx, input: undefined }))),
);
