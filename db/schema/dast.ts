// DAST on-demand scan profiles (EE, Ultimate in 13.6): a site profile names the target URL, a scanner profile the
// scanner's settings; dastOnDemandScanCreate turns the pair into a pipeline with a DAST job.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, smallint, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';

export const dastSiteProfiles = pgTable(
  'dast_site_profiles',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    targetUrl: text('target_url').notNull(),
    ...timestamps,
  },
  (t) => [
    unique('dast_site_profiles_project_id_name_key').on(t.projectId, t.name),
    check('dast_site_profiles_name_length', sql`char_length(${t.name}) <= 255`),
  ],
);

export const dastScannerProfiles = pgTable(
  'dast_scanner_profiles',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Minutes (DastScannerProfile: 0..2880). */
    spiderTimeout: integer('spider_timeout'),
    /** Seconds (0..3600). */
    targetTimeout: integer('target_timeout'),
    /** GitLab's enum: passive 1, active 2. */
    scanType: smallint('scan_type').notNull().default(1),
    useAjaxSpider: boolean('use_ajax_spider').notNull().default(false),
    showDebugMessages: boolean('show_debug_messages').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    unique('dast_scanner_profiles_project_id_name_key').on(t.projectId, t.name),
    check('dast_scanner_profiles_name_length', sql`char_length(${t.name}) <= 255`),
  ],
);

export type DastSiteProfileRow = typeof dastSiteProfiles.$inferSelect;
export type DastScannerProfileRow = typeof dastScannerProfiles.$inferSelect;
