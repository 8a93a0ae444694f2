// postinstall: GraphiQL's assets (from @graphql-yoga/render-graphiql, the same build yoga's page loads from a CDN)
// written under public/-/graphql-explorer/assets, so the explorer works with no network. The Worker serves this
// directory as static assets (wrangler.toml [assets]); `npm start` serves it with @hono/node-server.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), 'public', '-', 'graphql-explorer', 'assets');
let graphiql;
try {
  graphiql = await import('@graphql-yoga/render-graphiql/graphiql');
} catch {
  // A production install without dev dependencies: the explorer page then has no assets to load.
  console.warn('graphiql assets: @graphql-yoga/render-graphiql not installed, skipped');
  process.exit(0);
}
const files = {
  'graphiql.css': graphiql.css,
  'yoga-graphiql.umd.js': graphiql.js,
  'monacoeditorwork/editor.worker.bundle.js': graphiql.editorWorkerService,
  'monacoeditorwork/json.worker.bundle.js': graphiql.jsonWorker,
  // sic: yoga's page asks for this name
  'monacoeditorwork/graphql.worker..bundle.js': graphiql.graphqlWorker,
};
for (const [name, content] of Object.entries(files)) {
  const path = join(root, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
console.log(`graphiql assets: ${Object.keys(files).length} files in ${root}`);
