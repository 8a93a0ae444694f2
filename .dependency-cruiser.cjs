// The layering of ../shared/DESIGN.md, checked by `npm run lint:deps` (and in .ci/run). Paths are relative to the
// repository root. A rule about runtime imports says `dependencyTypesNot: ['type-only']`: an `import type` is erased
// before the code runs, so it couples no layers at runtime; the other rules hold for type imports too.
//
// Ownership. Every folder of functions/ is a domain (or a transport, or lib) and owns its queries by name:
// db/queries/<domain>.ts and db/queries/<domain>/; lib's are db/queries/lib/, shared by everyone (pagination windows,
// raw SQL helpers, internal ids, the policy's SQL twins, authentication's lookups...). `own-queries`: a domain imports
// at runtime only its own queries and lib's. To read another domain's data it calls that domain's batched reads
// (functions/<other>/reads.ts) or its service verbs; a query or statement another domain needs below its own policy
// check is offered by the owner from a leaf module of its folder (lookups.ts for reads, statements.ts for statements
// another domain puts in its own batch), which imports only db/queries and so closes no import cycle.
// Writes are the other half of ownership and imports cannot show them (db/queries modules import every table to read
// it): tests/unit/table-owners.test.ts scans db/queries and functions for write statements and fails on a write to a
// table another domain owns, outside its commented allow-list.

/** Every folder of functions/ other than lib: the domains, and the oauth, web and graphql transports. */
const DOMAIN = '^functions/(?!lib/)[^/]+/';
const ENTRY_FILES = '^functions/(index|app|env|local)\\.ts$';
/** A file in a folder of functions/; group 1 is the folder (a domain, a transport, or lib), `$1` in the rule's `to`. */
const IN_FOLDER = '^functions/([^/]+)/';
/** The queries a folder's code may import at runtime, `$1` (or `folder`) being the folder: its own and lib's. */
const OWN_QUERIES = (folder = '$1') => `^db/queries/(${folder}(\\.ts$|/)|lib/)`;

// ---- EXCEPTIONS to own-queries ---------------------------------------------------------------------------------------
// Imports of another domain's queries that predate the rule and wait for a refactor (the owner offering a read or a
// leaf module, or the code moving to its owner). Listed file by file, each with exactly the query modules it may
// import besides its own: any other import from these files, and any such import from another file, fails.
const OWN_QUERIES_EXCEPTIONS = {
  'functions/alerts/service.ts': ['db/queries/issues.ts'],
  'functions/award-emoji/service.ts': ['db/queries/snippets.ts'],
  'functions/boards/reads.ts': ['db/queries/issues.ts'],
  'functions/boards/service.ts': ['db/queries/epics/labels.ts', 'db/queries/labels.ts', 'db/queries/labels/writes.ts'],
  'functions/commit-statuses/service.ts': ['db/queries/pipelines.ts', 'db/queries/repositories/containing.ts', 'db/queries/repositories/reads.ts'],
  'functions/dast/scan.ts': ['db/queries/repositories/refs.ts'],
  'functions/deployments/service.ts': ['db/queries/environments.ts', 'db/queries/users.ts'],
  'functions/discussions/service.ts': ['db/queries/merge-requests.ts', 'db/queries/notes.ts', 'db/queries/repositories/diffs.ts', 'db/queries/repositories/reads.ts'],
  'functions/environments/dashboards.ts': ['db/queries/repositories/reads.ts'],
  'functions/environments/reads.ts': ['db/queries/annotations.ts'],
  'functions/environments/service.ts': ['db/queries/deployments.ts', 'db/queries/jobs.ts'],
  'functions/epics/boards.ts': ['db/queries/boards.ts'],
  'functions/epics/epic-issues.ts': ['db/queries/issues.ts'],
  'functions/epics/reads.ts': ['db/queries/groups.ts'],
  'functions/epics/write-steps.ts': ['db/queries/labels.ts', 'db/queries/labels/writes.ts'],
  'functions/groups/service.ts': ['db/queries/projects.ts'],
  'functions/housekeeping/service.ts': ['db/queries/events/retention.ts', 'db/queries/repositories/refs.ts'],
  'functions/issues/related-merge-requests.ts': ['db/queries/merge-requests.ts'],
  'functions/issues/service.ts': ['db/queries/iterations.ts', 'db/queries/labels.ts', 'db/queries/projects.ts'],
  'functions/issues/state.ts': ['db/queries/notes.ts'],
  'functions/iterations/service.ts': ['db/queries/issues/resource-events.ts'],
  'functions/jobs/service.ts': ['db/queries/repositories/log-graph.ts', 'db/queries/runners.ts', 'db/queries/users.ts'],
  'functions/lib/auth.ts': ['db/queries/tokens.ts', 'db/queries/users.ts'],
  'functions/members/service.ts': ['db/queries/users.ts'],
  'functions/merge-requests/auto-merge.ts': ['db/queries/pipelines.ts', 'db/queries/pipelines/merge-requests.ts', 'db/queries/users.ts'],
  'functions/merge-requests/closing.ts': ['db/queries/issues.ts', 'db/queries/projects.ts', 'db/queries/repositories/diffs.ts', 'db/queries/repositories/refs.ts'],
  'functions/merge-requests/contents.ts': ['db/queries/repositories/diffs.ts'],
  'functions/merge-requests/merge-engine.ts': ['db/queries/repositories/diffs.ts', 'db/queries/repositories/dirs.ts', 'db/queries/repositories/reads.ts'],
  'functions/merge-requests/merge.ts': ['db/queries/notes.ts', 'db/queries/pipelines/merge-requests.ts'],
  'functions/merge-requests/pipelines.ts': ['db/queries/pipelines.ts', 'db/queries/pipelines/merge-requests.ts'],
  'functions/merge-requests/reads.ts': ['db/queries/issues.ts', 'db/queries/labels.ts', 'db/queries/repositories/diffs.ts', 'db/queries/repositories/refs.ts'],
  'functions/merge-requests/refresh.ts': ['db/queries/projects.ts', 'db/queries/repositories/refs.ts', 'db/queries/users.ts'],
  'functions/merge-requests/service.ts': ['db/queries/issues.ts', 'db/queries/labels.ts', 'db/queries/projects.ts', 'db/queries/repositories/refs.ts'],
  'functions/merge-requests/tracking.ts': ['db/queries/issues.ts'],
  'functions/merge-requests/versions.ts': ['db/queries/repositories/diffs.ts'],
  'functions/milestones/service.ts': ['db/queries/issues.ts', 'db/queries/merge-requests.ts'],
  'functions/notes/create.ts': ['db/queries/alerts.ts', 'db/queries/issues.ts'],
  'functions/notes/mentions.ts': ['db/queries/issues.ts'],
  'functions/notes/noteables.ts': ['db/queries/repositories/reads.ts', 'db/queries/snippets.ts'],
  'functions/notes/update.ts': ['db/queries/alerts.ts'],
  'functions/notifications/deliver.ts': ['db/queries/issues.ts'],
  'functions/notifications/targets.ts': ['db/queries/epics.ts', 'db/queries/groups.ts', 'db/queries/issues.ts', 'db/queries/merge-requests.ts', 'db/queries/projects.ts'],
  'functions/pipelines/create.ts': ['db/queries/repositories/reads.ts'],
  'functions/pipelines/job-changes.ts': ['db/queries/jobs.ts'],
  'functions/pipelines/merge-request.ts': ['db/queries/repositories/reads.ts'],
  'functions/pipelines/push.ts': ['db/queries/repositories/reads.ts', 'db/queries/users.ts'],
  'functions/pipelines/reads.ts': ['db/queries/jobs.ts'],
  'functions/pipelines/service.ts': ['db/queries/repositories/reads.ts', 'db/queries/repositories/refs.ts', 'db/queries/users.ts'],
  'functions/projects/create.ts': ['db/queries/groups/namespaces.ts'],
  'functions/projects/fork.ts': ['db/queries/repositories/forks.ts'],
  'functions/projects/placement.ts': ['db/queries/groups/namespaces.ts'],
  'functions/projects/reads.ts': ['db/queries/groups.ts'],
  'functions/projects/update.ts': ['db/queries/compliance-frameworks.ts', 'db/queries/groups/namespaces.ts', 'db/queries/repositories/refs.ts'],
  'functions/repositories/comments/comments.ts': ['db/queries/notes.ts'],
  'functions/runners/artifacts.ts': ['db/queries/jobs.ts'],
  'functions/runners/service.ts': ['db/queries/jobs.ts', 'db/queries/pipelines.ts', 'db/queries/repositories/log-graph.ts'],
  'functions/sast/service.ts': ['db/queries/repositories/refs.ts'],
  'functions/snippets/service.ts': ['db/queries/notes.ts'],
  'functions/todos/epic-mentions.ts': ['db/queries/issues.ts'],
  'functions/todos/service.ts': ['db/queries/alerts.ts', 'db/queries/epics.ts', 'db/queries/issues.ts', 'db/queries/merge-requests.ts'],
  'functions/tokens/service.ts': ['db/queries/users.ts'],
  'functions/triggers/service.ts': ['db/queries/projects.ts'],
  'functions/users/bootstrap.ts': ['db/queries/tokens.ts'],
};
// ---- end of the exceptions -------------------------------------------------------------------------------------------

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * own-queries as dependency-cruiser rules: the rule itself for every file but the excepted ones (group matching: `$1`
 * in `to` is the folder `from` matched), and for each excepted file the same rule with exactly its listed imports
 * allowed besides.
 */
function ownQueries(comment) {
  const files = Object.keys(OWN_QUERIES_EXCEPTIONS);
  const rule = (from, pathNot) => ({
    name: 'own-queries',
    comment,
    severity: 'error',
    from,
    to: { path: '^db/queries/', pathNot, dependencyTypesNot: ['type-only'] },
  });
  return [
    rule({ path: IN_FOLDER, pathNot: files.map((f) => `^${escape(f)}$`) }, OWN_QUERIES()),
    ...files.map((file) =>
      rule(
        { path: `^${escape(file)}$` },
        [OWN_QUERIES(file.split('/')[1]), ...OWN_QUERIES_EXCEPTIONS[file].map((to) => `^${escape(to)}$`)].join('|'),
      ),
    ),
  ];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'schema-knows-nothing-above',
      comment: 'db/schema is the bottom layer: its files import only each other (and drizzle).',
      severity: 'error',
      from: { path: '^db/schema/' },
      to: { path: '^(functions|db)/', pathNot: '^db/schema/' },
    },
    {
      name: 'queries-know-no-functions',
      comment: 'db/queries are (db, args) => rows: they know the schema, never a file under functions/ (lib may import them, never the reverse).',
      severity: 'error',
      from: { path: '^db/queries/' },
      to: { path: '^functions/' },
    },
    {
      name: 'lib-knows-no-domain',
      comment: 'functions/lib is shared infrastructure: no domain, no transport (graphql, web, oauth), no entry file.',
      severity: 'error',
      from: { path: '^functions/lib/' },
      to: { path: '^functions/', pathNot: '^functions/lib/' },
    },
    {
      name: 'domains-know-no-entry',
      comment: 'A domain does not know which runtime it is in: no entry file, nothing of the embedded database.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: [ENTRY_FILES, '^db/local/'] },
    },
    {
      name: 'transports-read-through-services',
      comment:
        'GraphQL, the web pages and resolvers reach data through the domain services (the same filters and policy as REST); row types may be imported as types.',
      severity: 'error',
      from: { path: ['^functions/(graphql|web)/', '^functions/[^/]+/resolvers\\.ts$'] },
      to: { path: '^db/(queries|schema)/', dependencyTypesNot: ['type-only'] },
    },
    ...ownQueries(
      "A domain imports (at runtime) only its own queries, db/queries/<domain>.ts and db/queries/<domain>/, and lib's (db/queries/lib/); another domain's data comes through that domain's reads (functions/<other>/reads.ts), its service verbs, or a leaf module it offers (lookups.ts).",
    ),
    {
      name: 'no-circular',
      comment:
        // Type-only edges do not count: erased before the code runs, they cannot leave a module half-initialised
        // (the hazard of a runtime cycle), and where a layer must not know another the direction rules above already
        // hold for type imports. Two modules that only name each other's types stay free to.
        'No runtime import cycles.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    includeOnly: '^(functions|db)/',
    exclude: { path: ['^functions/web/explorer/public/', '^db/migrations/'] },
    doNotFollow: { path: 'node_modules' },
    // Keep `import type` edges and mark them type-only, so the rules can tell them from runtime imports.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
