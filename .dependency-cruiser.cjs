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

// ---- EXCEPTIONS to own-queries --------------------------------------------------------------------------------------
// Imports of another domain's queries that would wait for a refactor (the owner offering a read or a leaf module, or
// the code moving to its owner). Listed file by file, each with exactly the query modules it may import besides its
// own: any other import from these files, and any such import from another file, fails. Empty: every import the rule
// found when it came goes through the owner's lookups.ts/statements.ts or db/queries/lib/ now. An entry looks like
//   'functions/alerts/service.ts': ['db/queries/issues.ts'],
const OWN_QUERIES_EXCEPTIONS = {};
// ---- end of the exceptions ------------------------------------------------------------------------------------------

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
      rule({ path: `^${escape(file)}$` }, [OWN_QUERIES(file.split('/')[1]), ...OWN_QUERIES_EXCEPTIONS[file].map((to) => `^${escape(to)}$`)].join('|')),
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
