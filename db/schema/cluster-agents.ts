// GitLab's Kubernetes agents (EE, Premium in 13.6): an agent is a name registered on a project; its tokens are what
// the agent would present to GitLab's agent server. Only a token's SHA-256 digest is stored (the secret is shown once,
// by clusterAgentTokenCreate); no credential lookup reads this table, so an agent token authenticates nothing here.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const clusterAgents = pgTable(
  'cluster_agents',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  // Clusters::Agent validates `uniqueness: { scope: :project_id }`: the database keeps it under concurrent creates.
  (t) => [unique('cluster_agents_project_id_name_key').on(t.projectId, t.name), check('cluster_agents_name_length', sql`char_length(${t.name}) <= 63`)],
);

export const clusterAgentTokens = pgTable(
  'cluster_agent_tokens',
  {
    id: serial('id').primaryKey(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => clusterAgents.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull().unique('cluster_agent_tokens_token_digest_key'),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('cluster_agent_tokens_agent_id_idx').on(t.agentId, t.id)],
);

export type ClusterAgentRow = typeof clusterAgents.$inferSelect;
export type ClusterAgentTokenRow = typeof clusterAgentTokens.$inferSelect;
