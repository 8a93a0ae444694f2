// A project's error-tracking integration (GitLab's project_error_tracking_settings). The tracker's auth token is
// stored encrypted (AES-GCM, key from the ENCRYPTION_KEY secret), never returned.
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';

export const errorTrackingSettings = pgTable('project_error_tracking_settings', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** `active` in the API. */
  enabled: boolean('enabled').notNull().default(false),
  integrated: boolean('integrated').notNull().default(false),
  /** The tracker's project API URL (`https://host/api/0/projects/{org}/{project}/`). */
  apiUrl: text('api_url'),
  /** base64(iv ‖ AES-GCM ciphertext) of the auth token. */
  encryptedToken: text('encrypted_token'),
  projectName: text('project_name'),
  organizationName: text('organization_name'),
  ...timestamps,
});

export type ErrorTrackingSettingRow = typeof errorTrackingSettings.$inferSelect;
