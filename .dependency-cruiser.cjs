// The layering of ../shared/DESIGN.md, checked by `npm run lint:deps` (and in .ci/run). Paths are relative to the
// repository root. A rule about runtime imports says `dependencyTypesNot: ['type-only']`: an `import type` is erased
// before the code runs, so it couples no layers at runtime; the other rules hold for type imports too.

/** Every folder of functions/ other than lib: the domains, and the oauth, web and graphql transports. */
const DOMAIN = '^functions/(?!lib/)[^/]+/';
const ENTRY_FILES = '^functions/(index|app|env|local)\\.ts$';

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
