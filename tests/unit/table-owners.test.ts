// Table ownership, the half of the layering that imports cannot show (.dependency-cruiser.cjs checks the other:
// `own-queries`, a domain imports only its own db/queries). Every folder of functions/ is a domain (or a transport, or
// lib) and owns its queries by name (db/queries/<domain>.ts and db/queries/<domain>/, lib's db/queries/lib/) and a set
// of tables. A table is written only by its owner's code: a domain that changes another's rows calls the statement the
// owner offers (functions/<owner>/statements.ts) and puts it in its own batch. db/queries modules import every table to
// read it, so this test reads the code instead: each drizzle `.insert(t)`, `.update(t)`, `.delete(t)` and each raw
// `INSERT INTO`, `UPDATE ... SET`, `DELETE FROM` naming a table (by its SQL name or as `${table}`) in db/queries and
// functions is compared with the table's owner. Known exceptions are listed below with their reason; a listed write
// that no longer exists fails too, so the list only shrinks. No database.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Comments removed, line breaks kept (so a line number is the file's). */
const code = (path: string) =>
  readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ''))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The folders of functions/: the domains, the transports and lib. */
const DOMAINS = new Set(readdirSync(join(ROOT, 'functions')).filter((name) => statSync(join(ROOT, 'functions', name)).isDirectory()));

/** The folder of functions/ a file of `root` (db/queries or functions) belongs to, by its first segment. */
const ownerOf = (path: string, root: string) =>
  relative(root, path)
    .split('/')[0]!
    .replace(/\.tsx?$/, '');

// ---- Owners ---------------------------------------------------------------------------------------------------------
// A table is owned by the domain its db/schema file is named after (db/schema/labels.ts: labels). The schema files are
// grouped by table family rather than by domain in places (ci.ts, collaboration.ts, environments.ts...); the tables of
// those, and those whose file is named after no folder of functions/, are owned as listed here.
const OWNER_OVERRIDES: Record<string, string> = {
  // db/schema/access-requests.ts: requests become memberships (GitLab keeps them as member rows)
  access_requests: 'members',
  // db/schema/sharing.ts
  project_group_links: 'sharing',
  group_group_links: 'sharing',
  // db/schema/alerts.ts
  alert_management_http_integrations: 'alert-integrations',
  // db/schema/avatars.ts
  avatars: 'uploads',
  // db/schema/ci.ts
  ci_triggers: 'triggers',
  ci_pipelines: 'pipelines',
  ci_pipeline_variables: 'pipelines',
  ci_stages: 'pipelines',
  ci_runners: 'runners',
  ci_runner_projects: 'runners',
  ci_runner_namespaces: 'runners',
  ci_builds: 'jobs',
  ci_build_needs: 'jobs',
  ci_build_trace_chunks: 'jobs',
  ci_job_artifacts: 'jobs',
  // db/schema/collaboration.ts
  award_emoji: 'award-emoji',
  todos: 'todos',
  subscriptions: 'notifications',
  // db/schema/environments.ts
  deployments: 'deployments',
  metrics_dashboard_annotations: 'annotations',
  // db/schema/identities.ts
  identities: 'users',
  // db/schema/issues.ts: the iid counters of every parent are shared infrastructure (db/queries/lib/internal-ids.ts)
  internal_ids: 'lib',
  // db/schema/issues.ts: time tracking's log, for issues and merge requests alike
  timelogs: 'issuables',
  // db/schema/namespaces.ts
  namespaces: 'groups',
  // db/schema/oauth.ts: the applications are their own domain; sessions and rate limits are lib's
  oauth_applications: 'applications',
  sessions: 'lib',
  rate_limits: 'lib',
  // db/schema/protected-branches.ts, protected-tags.ts
  protected_branches: 'repositories',
  protected_tags: 'repositories',
  // db/schema/resource-events.ts: the issues' resource events (db/queries/issues/resource-events.ts)
  resource_state_events: 'issues',
  resource_weight_events: 'issues',
  resource_milestone_events: 'issues',
  resource_iteration_events: 'issues',
  // db/schema/stored-files.ts
  stored_files: 'lib',
  stored_file_chunks: 'lib',
};

// ---- ALLOWED: writes to another domain's table, by file and table, with the reason ----------------------------------
// Each predates this test. Some are one statement that writes rows of several domains at once (a CTE allocating an
// iid, a fork's batch) and would lose that if split; the others wait for the owner to offer the statement (or for the
// code to move to its owner). A new write to another domain's table fails until it is offered by its owner or listed
// here with its reason.
const ALLOWED: Record<string, readonly string[]> = {
  // the notify endpoint records an alert in one statement: its throttle, the alert bot user, the alert's iid and its
  // system note are CTEs of it
  'db/queries/alerts/notify.ts': ['internal_ids', 'notes', 'rate_limits', 'users'],
  // a commit status is a generic job in a stage of an external pipeline (pipelines and jobs to offer the statements)
  'db/queries/commit-statuses.ts': ['ci_builds', 'ci_stages'],
  // a pipeline's deployments find or create their environments and allocate their iids in one statement
  'db/queries/deployments.ts': ['environments', 'internal_ids'],
  // a group's creator membership; a rename or deletion moves or marks its projects' paths in one statement
  'db/queries/groups.ts': ['members', 'projects'],
  // purging deleted projects and groups and expired memberships (members, projects, groups to offer them)
  'db/queries/housekeeping.ts': ['members', 'namespaces', 'projects'],
  // a label's subscriptions removed in its delete statement
  'db/queries/labels/writes.ts': ['subscriptions'],
  // authentication marks the use of the token it authenticated with, and the user's activity of the day
  'db/queries/lib/auth.ts': ['oauth_access_tokens', 'personal_access_tokens', 'users'],
  // the closing issues a merge request caches, replaced with its version (the issues domain to offer the statement)
  'db/queries/merge-requests/versions.ts': ['merge_requests_closing_issues'],
  // the milestone's iid allocated in its insert statement
  'db/queries/milestones.ts': ['internal_ids'],
  // the global notification email is a column of users, set in the setting's statement
  'db/queries/notification-settings.ts': ['users'],
  // creating a pipeline inserts its jobs and their needs in one statement; job statuses set with the pipeline's
  'db/queries/pipelines.ts': ['ci_build_needs', 'ci_builds'],
  // a fork is one batch: the project, its creator's membership, the fork event, the avatar copy
  'db/queries/repositories/forks.ts': ['avatars', 'events', 'members', 'projects'],
  // the runner API claims and finishes jobs, appends traces and stores artifacts (jobs to offer them)
  'db/queries/runners.ts': ['ci_build_trace_chunks', 'ci_builds', 'ci_job_artifacts'],
  // an avatar's URL column on its owner (users, groups, projects)
  'db/queries/uploads/avatars.ts': ['namespaces', 'projects', 'users'],
  // a user's personal namespace, the project paths a rename moves, the namespace and memberships deleted with the user
  'db/queries/users.ts': ['members', 'namespaces', 'projects'],
};
// ---- end of the allow-list ------------------------------------------------------------------------------------------

interface Table {
  js: string;
  sql: string;
  owner: string;
}

const SCHEMA_FILES = filesUnder('db/schema');
const TABLES: Table[] = SCHEMA_FILES.flatMap((file) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(([, js, sql]) => ({
    js: js!,
    sql: sql!,
    owner: OWNER_OVERRIDES[sql!] ?? basename(file, '.ts'),
  })),
);
const byJs = new Map(TABLES.map((t) => [t.js, t]));
const bySql = new Map(TABLES.map((t) => [t.sql, t]));

interface Write {
  file: string;
  line: number;
  table: Table;
  how: string;
}

function writesIn(file: string): Write[] {
  const text = code(file);
  const found: Write[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  // Aliased table imports (`import { issues as i } from '.../schema/...'`) resolve to the table.
  const alias = new Map<string, string>();
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[^']*schema\/[^']*'/g)) {
    for (const part of m[1]!.split(',')) {
      const [name, as] = part.trim().split(/\s+as\s+/);
      if (name && as) alias.set(as, name);
    }
  }
  const table = (name: string | undefined, sqlName: string | undefined) => (name ? byJs.get(alias.get(name) ?? name) : bySql.get(sqlName!.toLowerCase()));
  for (const m of text.matchAll(/\.(insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const t = table(m[2], undefined);
    if (t) found.push({ file, line: lineOf(m.index), table: t, how: `.${m[1]}()` });
  }
  const NAME = String.raw`(?:\$\{(\w+)\}|"?(\w+)"?)`;
  const RAW = [
    new RegExp(String.raw`\b(INSERT INTO)\s+${NAME}`, 'g'),
    new RegExp(String.raw`\b(DELETE FROM)\s+${NAME}`, 'g'),
    new RegExp(String.raw`\b(UPDATE)\s+(?:ONLY\s+)?${NAME}(?:\s+(?:AS\s+)?\w+)?\s+SET\b`, 'g'),
  ];
  for (const re of RAW) {
    for (const m of text.matchAll(re)) {
      const t = table(m[2], m[3]);
      if (t) found.push({ file, line: lineOf(m.index), table: t, how: m[1]! });
    }
  }
  return found;
}

const SOURCES = [...filesUnder('db/queries'), ...filesUnder('functions').filter((f) => !f.startsWith('functions/web/explorer/public/'))];
const fileOwner = (file: string) => (file.startsWith('db/queries/') ? ownerOf(file, 'db/queries') : ownerOf(file, 'functions'));
const WRITES = SOURCES.flatMap(writesIn);
const foreign = (w: Write) => fileOwner(w.file) !== w.table.owner;

describe('table ownership', () => {
  it('finds the writes it looks for (the scan is not blind)', () => {
    const seen = new Set(WRITES.map((w) => `${w.file} ${w.table.sql} ${w.how}`));
    for (const expected of [
      'db/queries/users.ts users .update()',
      'db/queries/events/record.ts events .insert()',
      'db/queries/pipelines.ts ci_builds INSERT INTO',
      'db/queries/labels/writes.ts labels INSERT INTO',
    ]) {
      expect(seen).toContain(expected);
    }
    expect(WRITES.some((w) => !w.how.startsWith('.'))).toBe(true);
  });

  it('every table has an owner among the folders of functions/ (by its schema file or an override)', () => {
    expect(TABLES.length).toBeGreaterThan(50);
    expect(TABLES.filter((t) => !DOMAINS.has(t.owner)).map((t) => `${t.sql} (${t.owner})`)).toEqual([]);
    expect(Object.keys(OWNER_OVERRIDES).filter((sql) => !bySql.has(sql))).toEqual([]);
  });

  it('every query module belongs to a folder of functions/ (db/queries/<domain>.ts, db/queries/<domain>/, lib/)', () => {
    expect(filesUnder('db/queries').filter((f) => !DOMAINS.has(ownerOf(f, 'db/queries')))).toEqual([]);
  });

  it('no code writes a table another domain owns (outside the allow-list)', () => {
    const unlisted = WRITES.filter((w) => foreign(w) && !ALLOWED[w.file]?.includes(w.table.sql)).map(
      (w) => `${w.file}:${w.line} ${w.how} ${w.table.sql} (owned by ${w.table.owner})`,
    );
    expect(unlisted).toEqual([]);
  });

  it('every allowed write still exists (the list only shrinks)', () => {
    const stale = Object.entries(ALLOWED)
      .flatMap(([file, tables]) => tables.map((t) => `${file} ${t}`))
      .filter((key) => !WRITES.some((w) => foreign(w) && `${w.file} ${w.table.sql}` === key));
    expect(stale).toEqual([]);
  });
});
