import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';
import { namespaces } from './namespaces.ts';
import { users } from './users.ts';

export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    namespaceId: integer('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    path: text('path').notNull(),
    pathWithNamespace: text('path_with_namespace').notNull(),
    description: text('description').notNull().default(''),
    visibilityLevel: smallint('visibility_level').notNull().default(0),
    defaultBranch: text('default_branch'),
    archived: boolean('archived').notNull().default(false),
    starCount: integer('star_count').notNull().default(0),
    forkedFromId: integer('forked_from_id'),
    /** The uploaded avatar's path (`/uploads/-/system/project/avatar/<id>/<file>`); the bytes are in `avatars`. */
    avatarUrl: text('avatar_url'),
    /** How merge requests merge: GitLab's merge_method (merge, rebase_merge, ff). */
    mergeMethod: text('merge_method').$type<'merge' | 'rebase_merge' | 'ff'>().notNull().default('merge'),
    /** GitLab's remove_source_branch_after_merge: the default of a new MR's "delete source branch". */
    removeSourceBranchAfterMerge: boolean('remove_source_branch_after_merge').notNull().default(true),
    onlyAllowMergeIfAllDiscussionsAreResolved: boolean('only_allow_merge_if_all_discussions_are_resolved').notNull().default(false),
    /** GitLab's only_allow_merge_if_pipeline_succeeds: a merge needs a successful (or skipped) head pipeline. */
    onlyAllowMergeIfPipelineSucceeds: boolean('only_allow_merge_if_pipeline_succeeds').notNull().default(false),
    /**
     * Bumped to rotate the runner registration token, which is derived from ENCRYPTION_KEY and this number
     * (functions/runners/registration-token.ts) and so is never stored.
     */
    runnersTokenVersion: integer('runners_token_version').notNull().default(0),
    /**
     * GitLab's ProjectFeature access levels (0 disabled, 10 private: members only, 20 enabled: whoever reads the
     * project, 30 public: pages only). Columns, not settings: the listings' SQL filters read them.
     */
    issuesAccessLevel: smallint('issues_access_level').notNull().default(20),
    repositoryAccessLevel: smallint('repository_access_level').notNull().default(20),
    mergeRequestsAccessLevel: smallint('merge_requests_access_level').notNull().default(20),
    forkingAccessLevel: smallint('forking_access_level').notNull().default(20),
    wikiAccessLevel: smallint('wiki_access_level').notNull().default(20),
    buildsAccessLevel: smallint('builds_access_level').notNull().default(20),
    snippetsAccessLevel: smallint('snippets_access_level').notNull().default(20),
    pagesAccessLevel: smallint('pages_access_level').notNull().default(20),
    /** Whether the instance's shared runners take this project's jobs (the runner queue's SQL reads it). */
    sharedRunnersEnabled: boolean('shared_runners_enabled').notNull().default(true),
    /**
     * Whether the runners of the project's groups (its namespace's and its ancestors') take this project's jobs: GitLab's
     * project_ci_cd_settings.group_runners_enabled, which the 13.6 API neither declares nor shows (the runner queue's
     * SQL reads it).
     */
    groupRunnersEnabled: boolean('group_runners_enabled').notNull().default(true),
    /** GitLab's public_builds (the API's public_jobs): whoever reads the project reads its jobs; else reporters and above. */
    publicBuilds: boolean('public_builds').notNull().default(true),
    /**
     * The other settings GitLab 13.6 declares for projects, by their API names (functions/projects/settings.ts is
     * their catalog: validation, defaults, the entity); absent keys have the catalog's defaults.
     */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('projects_path_with_namespace_lower_idx').on(sql`lower(${t.pathWithNamespace})`),
    // GitLab keeps project names unique within a namespace too.
    uniqueIndex('projects_namespace_name_lower_idx').on(t.namespaceId, sql`lower(${t.name})`),
    index('projects_namespace_id_idx').on(t.namespaceId),
    index('projects_forked_from_id_idx').on(t.forkedFromId),
    index('projects_visibility_level_id_idx').on(t.visibilityLevel, t.id),
    index('projects_created_at_id_idx').on(t.createdAt, t.id),
  ],
);

/**
 * A project's former full paths (GitLab's redirect_routes, source type Project): git served at an old path reaches
 * the project (as Project.find_by_full_path(path, follow_redirects: true)), and a push there is told where it moved.
 * Written by triggers on projects (migration 0019), so every rename and transfer, a group's or a user's rename
 * rewriting its projects' paths included, records one without any code path remembering to: the old path on a
 * change that is more than case, and a project taking a path removes the redirect from it (Route's
 * delete_conflicting_redirects).
 */
export const redirectRoutes = pgTable(
  'redirect_routes',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('redirect_routes_path_lower_idx').on(sql`lower(${t.path})`), index('redirect_routes_project_id_idx').on(t.projectId)],
);

export const stars = pgTable(
  'stars',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index('stars_project_id_idx').on(t.projectId)],
);

export type ProjectRow = typeof projects.$inferSelect;
