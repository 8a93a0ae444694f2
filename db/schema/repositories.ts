import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './_columns.ts';
import { projects } from './projects.ts';
import { storedFiles } from './stored-files.ts';

/**
 * Git repositories in Postgres. Objects are git's own (byte-exact bodies addressed by git's SHA-1) and belong to an
 * object pool, one per fork network: a fork's repository joins its source's pool, so forking copies no object (only
 * the source's refs). A pool outlives any one project and is deleted, with every object and derived row in it
 * (the foreign keys cascade), only once no repository uses it (`deleteUnusedPool`, db/queries/repositories/refs.ts).
 *
 * Object ids are stored as their 20 raw bytes (half the size of hex in every key and index); paths and tree entry
 * names as bytes too, since git's are bytes and need not be UTF-8 (text would refuse such a name).
 */
export const objectPools = pgTable('object_pools', {
  id: serial('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A project's repository: which pool its objects live in, and its HEAD (the default branch's short name). */
export const repositories = pgTable(
  'repositories',
  {
    projectId: integer('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    // No cascade: a pool goes only when its last repository has gone (deleteUnusedPool), never with one of them.
    poolId: integer('pool_id')
      .notNull()
      .references(() => objectPools.id),
    /** git's HEAD: the branch (short name) clones check out; null until the first branch exists. */
    defaultBranch: text('default_branch'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('repositories_pool_id_idx').on(t.poolId)],
);

/** Git object types, with git's own numbers (the pack format's). */
export const GIT_OBJECT_TYPES = { commit: 1, tree: 2, blob: 3, tag: 4 } as const;

const poolRef = () =>
  integer('pool_id')
    .notNull()
    .references(() => objectPools.id, { onDelete: 'cascade' });

/** Every object of a pool: the body exactly as git stores it after its `<type> <size>\0` header. */
export const gitObjects = pgTable(
  'git_objects',
  {
    poolId: poolRef(),
    oid: bytea('oid').notNull(),
    type: smallint('type').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.oid] })],
);

/** Branches, tags and other refs by full name (`refs/heads/main`); moved only by compare-and-swap. */
export const gitRefs = pgTable(
  'git_refs',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => repositories.projectId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    oid: bytea('oid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);

/**
 * Which objects of its pool a project may read: every object reachable from the project's own refs, kept closed under
 * reachability (an object's parents, tree, entries and tag target are members whenever it is). A pool is storage,
 * never a permission: a fork network shares one pool, and without this set any id in the pool (a private fork's
 * commits, a project's commits after it was made private) would be readable through every project of the network.
 * Rows are added in the statement that moves a ref (updateRefQuery walks from the new target down to the objects
 * already members, so it costs what it adds) and copied whole when a project is forked; a ref that is deleted leaves
 * its objects readable, as git keeps unreachable objects until a gc.
 */
export const gitProjectObjects = pgTable(
  'git_project_objects',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => repositories.projectId, { onDelete: 'cascade' }),
    oid: bytea('oid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.oid] })],
);

/**
 * Derived from each commit object, in the same batch: the commit graph (parents, generation = 1 + the parents'
 * highest, 1 for a root) and the fields a commit listing shows, so a page of `git log` is one statement.
 */
export const gitCommits = pgTable(
  'git_commits',
  {
    poolId: poolRef(),
    oid: bytea('oid').notNull(),
    treeOid: bytea('tree_oid').notNull(),
    parentOids: bytea('parent_oids').array().notNull(),
    generation: integer('generation').notNull(),
    authorName: text('author_name').notNull(),
    authorEmail: text('author_email').notNull(),
    authoredAt: timestamp('authored_at', { withTimezone: true }).notNull(),
    /** git's offset as written (`+0200`): the API prints dates in the author's own zone. */
    authorTz: text('author_tz').notNull(),
    committerName: text('committer_name').notNull(),
    committerEmail: text('committer_email').notNull(),
    committedAt: timestamp('committed_at', { withTimezone: true }).notNull(),
    committerTz: text('committer_tz').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.oid] })],
);

/** Derived from each tree object: its direct children, so a path is resolved by one recursive statement. */
export const gitTreeEntries = pgTable(
  'git_tree_entries',
  {
    poolId: poolRef(),
    treeOid: bytea('tree_oid').notNull(),
    name: bytea('name').notNull(),
    /** The octal digits stored in the tree ('100644', '40000', '160000', legacy modes as written). */
    mode: text('mode').notNull(),
    oid: bytea('oid').notNull(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.treeOid, t.name] })],
);

/**
 * Derived from each commit: the paths (files, symlinks, submodules; not directories) that differ from its first
 * parent's tree, every path of a root commit. `git log -- path` is a join on it: a path matches itself and, as a
 * directory, every path below it (a byte range `path/` .. `path0`, '0' being the byte after '/').
 */
export const gitCommitPaths = pgTable(
  'git_commit_paths',
  {
    poolId: poolRef(),
    commitOid: bytea('commit_oid').notNull(),
    path: bytea('path').notNull(),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.commitOid, t.path] }), index('git_commit_paths_pool_id_path_idx').on(t.poolId, t.path)],
);

export type RepositoryRow = typeof repositories.$inferSelect;
export type GitCommitRow = typeof gitCommits.$inferSelect;

/**
 * A project's repacked objects (git repack; Gitaly's housekeeping): every object reachable from its branches and
 * tags when it was built (`tips`), as one pack's entries with deltas in the chunked store (`file_id`: the entries
 * without the pack's header and trailer), their ids sorted (`oids_file_id`: 20 bytes each) and the same entries
 * without the blobs (`trees_file_id`, for blob-less partial clones). A clone streams it
 * and adds only what is newer (transport/upload-pack.ts), instead of planning and compressing every object. Built by
 * the git_garbage_collect job (transport/repack.ts) once enough objects came since the last; one is current (no
 * `replaced_at`); a replaced one stays readable a while (a clone may be streaming it), then goes with its files
 * (migration 0018's trigger).
 */
export const gitPacks = pgTable(
  'git_packs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => repositories.projectId, { onDelete: 'cascade' }),
    /** The refs' targets it was built from (commits and annotated tags), hex. */
    tips: text('tips').array().notNull(),
    objectCount: integer('object_count').notNull(),
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => storedFiles.id),
    oidsFileId: bigint('oids_file_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => storedFiles.id),
    /** The same pack without its blobs (a partial clone's `--filter=blob:none`), and how many objects it holds. */
    treesFileId: bigint('trees_file_id', { mode: 'number' })
      .unique()
      .references(() => storedFiles.id),
    treesObjectCount: integer('trees_object_count'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('git_packs_current_idx')
      .on(t.projectId)
      .where(sql`replaced_at IS NULL`),
    index('git_packs_project_id_idx').on(t.projectId),
  ],
);
