// The instance's settings (GitLab's ApplicationSetting.current): one row, its settings by API name
// (functions/application-settings/catalog.ts is their catalog: validation, defaults, the entity). Absent keys have
// the catalog's defaults; the row is made by the first change.
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, smallint } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';

export const applicationSettings = pgTable(
  'application_settings',
  {
    id: smallint('id').primaryKey().default(1),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [check('application_settings_one_row', sql`${t.id} = 1`)],
);

export type ApplicationSettingsRow = typeof applicationSettings.$inferSelect;
