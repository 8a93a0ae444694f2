// Deploy tokens of projects and groups (GitLab's deploy_tokens with project_deploy_tokens / group_deploy_tokens,
// folded into owner columns): a token stored as a digest, its scopes, its username (GitLab's default
// `gitlab+deploy-token-<id>` when none was given), and an expiry.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { namespaces } from './namespaces.ts';
import { projects } from './projects.ts';

export const deployTokens = pgTable(
  'deploy_tokens',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => namespaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The username given; null for GitLab's default (`gitlab+deploy-token-<id>`). */
    username: text('username'),
    tokenDigest: text('token_digest').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deploy_tokens_digest_idx').on(t.tokenDigest),
    index('deploy_tokens_project_idx').on(t.projectId),
    index('deploy_tokens_group_idx').on(t.groupId),
    check('deploy_tokens_one_owner', sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

export type DeployTokenRow = typeof deployTokens.$inferSelect;
