// GET/PUT /notification_settings, /groups/:id/notification_settings, /projects/:id/notification_settings.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { groupRef, projectRef } from '../lib/ids.ts';
import * as z from 'zod/mini';
import { parseParams, path, schema } from '../lib/validate.ts';
import { settingInputSchema, toGlobalNotificationSetting, toNotificationSetting, type SettingInput, type SettingKind } from './schemas.ts';
import * as settings from './service.ts';

export const notificationSettingRoutes = new Hono<AppEnv>();

/**
 * The PUT parameters (query, form or JSON, as lib/validate.ts `params()` merges them), parsed after authentication
 * (GitLab's `before { authenticate! }`).
 */
async function settingParams(c: Context<AppEnv>, kind: SettingKind): Promise<SettingInput> {
  return (await parseParams(c, settingInputSchema(kind))) as SettingInput;
}

notificationSettingRoutes.get('/notification_settings', authenticated, async (c) => {
  const r = await settings.getGlobalSetting({ ctx: c.var.ctx, input: {} });
  return c.json(toGlobalNotificationSetting(r.setting, r.events, r.notificationEmail));
});

notificationSettingRoutes.put('/notification_settings', authenticated, async (c) => {
  const input = await settingParams(c, 'global');
  const r = await settings.updateGlobalSetting({ ctx: c.var.ctx, input });
  return c.json(toGlobalNotificationSetting(r.setting, r.events, r.notificationEmail));
});

const SOURCES = [
  { kind: 'project', prefix: '/projects', ref: projectRef },
  { kind: 'group', prefix: '/groups', ref: groupRef },
] as const;

for (const { kind, prefix, ref } of SOURCES) {
  const SourcePath = schema(() => z.object({ id: ref() }));
  const route = `${prefix}/:id/notification_settings`;

  notificationSettingRoutes.get(route, authenticated, path(SourcePath), async (c) => {
    const r = await settings.getSourceSetting({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id } });
    return c.json(toNotificationSetting(r.setting, r.events));
  });

  notificationSettingRoutes.put(route, authenticated, path(SourcePath), async (c) => {
    const params = await settingParams(c, 'source');
    const r = await settings.updateSourceSetting({ ctx: c.var.ctx, input: { kind, ref: c.req.valid('param').id, params } });
    return c.json(toNotificationSetting(r.setting, r.events));
  });
}
