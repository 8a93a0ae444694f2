// A fork's whole write as two statements of one batch (one round trip, all or nothing), whatever the source's size:
// the project row, its owner's membership (personal namespace), its `created` event, a copy of the source's avatar,
// its repository (the source's pool: no object copied), a copy of the source's refs and the protection of its
// default branch (Projects::ProtectDefaultBranchService runs after a fork's import too). What used to be an
// interactive transaction of a dozen statements is the same checks inside the statements:
//  1. the namespace row is locked (FOR SHARE: a rename or deletion waits) and so is the full path (the advisory lock
//     every project/group create takes, so two creates of one path are serialized);
//  2. a data-modifying statement inserts everything only if the namespace is live and the path is free in both
//     tables. Under READ COMMITTED it takes its snapshot after statement 1's locks: it sees what a racing create
//     committed. No row back means nothing was written (every insert hangs off the project's).
// Foreign keys between sibling CTEs (git_refs -> repositories -> projects) are checked at the end of the statement.
import { sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { avatars, events, gitProjectObjects, gitRefs, members, namespaces, projects, protectedBranches, repositories } from '../../schema/index.ts';

export interface NewFork {
  sourceId: number;
  namespaceId: number;
  /** Whether the namespace is a user's: its owner becomes the fork's owner (member, access 50). */
  personal: boolean;
  ownerId: number;
  creatorId: number;
  name: string;
  path: string;
  description: string;
  visibilityLevel: number;
  defaultBranch: string | null;
  /** events.action of `created` (the caller owns the event vocabulary). */
  createdAction: number;
}

/** The two statements; the second answers `{ id }` of the new project, or no row when the namespace or path was not free. */
export function forkProjectQueries(db: Db, f: NewFork) {
  const lock = db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(lower(n.full_path || '/' || ${f.path}))) FROM ${namespaces} n
    WHERE n.id = ${f.namespaceId} AND n.deleted_at IS NULL FOR SHARE OF n`);
  const insert = db.execute(sql`WITH ns AS (
      SELECT n.full_path || '/' || ${f.path} AS full_path FROM ${namespaces} n WHERE n.id = ${f.namespaceId} AND n.deleted_at IS NULL
    ), target AS (
      SELECT ns.full_path, nextval(pg_get_serial_sequence('projects', 'id')) AS id FROM ns
      WHERE NOT EXISTS (SELECT 1 FROM ${namespaces} x WHERE lower(x.full_path) = lower(ns.full_path))
        AND NOT EXISTS (SELECT 1 FROM ${projects} x WHERE lower(x.path_with_namespace) = lower(ns.full_path))
    ), p AS (
      INSERT INTO ${projects} (id, namespace_id, creator_id, name, path, path_with_namespace, description, visibility_level, default_branch, forked_from_id, avatar_url)
      SELECT t.id, ${f.namespaceId}, ${f.creatorId}, ${f.name}, ${f.path}, t.full_path, ${f.description}, ${f.visibilityLevel}, ${f.defaultBranch}, ${f.sourceId},
        -- The copied avatar's path names the new project (uploads/avatars.ts avatarPath): the source's, re-pointed.
        (SELECT regexp_replace(s.avatar_url, '/avatar/[0-9]+/', '/avatar/' || t.id || '/')
           FROM ${projects} s WHERE s.id = ${f.sourceId} AND EXISTS (SELECT 1 FROM ${avatars} a WHERE a.project_id = s.id))
      FROM target t RETURNING id
    ), m AS (
      INSERT INTO ${members} (source_type, source_id, user_id, access_level, created_by_id)
      SELECT 'Project', p.id, ${f.ownerId}, 50, ${f.creatorId} FROM p WHERE ${f.personal ? sql`true` : sql`false`}
    ), e AS (
      INSERT INTO ${events} (project_id, author_id, action) SELECT p.id, ${f.ownerId}, ${f.createdAction} FROM p
    ), av AS (
      INSERT INTO ${avatars} (project_id, filename, content_type, size, checksum, data)
      SELECT p.id, a.filename, a.content_type, a.size, a.checksum, a.data FROM p, ${avatars} a WHERE a.project_id = ${f.sourceId}
    ), repo AS (
      INSERT INTO ${repositories} (project_id, pool_id, default_branch)
      SELECT p.id, r.pool_id, r.default_branch FROM p, ${repositories} r WHERE r.project_id = ${f.sourceId}
      RETURNING project_id, default_branch
    ), refs AS (
      INSERT INTO ${gitRefs} (project_id, name, oid) SELECT repo.project_id, g.name, g.oid FROM repo, ${gitRefs} g WHERE g.project_id = ${f.sourceId}
    ), readable AS (
      -- The fork has every ref of its source, so it may read what the source may: the source's readable set, copied.
      INSERT INTO ${gitProjectObjects} (project_id, oid) SELECT repo.project_id, o.oid FROM repo, ${gitProjectObjects} o WHERE o.project_id = ${f.sourceId}
    ), protection AS (
      INSERT INTO ${protectedBranches} (project_id, name, push_access_level, merge_access_level)
      SELECT repo.project_id, repo.default_branch, 40, 40 FROM repo WHERE repo.default_branch IS NOT NULL
    )
    SELECT id FROM p`);
  return [lock, insert] as const;
}

/** Whether the namespace still exists and is not being deleted (which of the two refusals a fork that wrote nothing gets). */
export async function namespaceIsLive(db: Db, id: number): Promise<boolean> {
  const found = await db.execute(sql`SELECT 1 FROM ${namespaces} WHERE id = ${id} AND deleted_at IS NULL`);
  return (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows).length > 0;
}
