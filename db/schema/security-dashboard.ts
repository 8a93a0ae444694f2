// GitLab's users_security_dashboard_projects (EE, Ultimate): the projects each user put on their instance security
// dashboard. Whether the user may still see a project there is decided when it is read (developer access).
import { index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

export const securityDashboardProjects = pgTable(
  'users_security_dashboard_projects',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index('users_security_dashboard_projects_project_id_idx').on(t.projectId)],
);
