// The explorer at /-/graphql-explorer: GraphiQL pointed at /api/graphql, every asset local (works offline), and a
// signed-in browser's CSRF token passed along so its requests run as the user.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.ts';

describe('GET /-/graphql-explorer', () => {
  it('serves GraphiQL with local assets only', async () => {
    const res = await request('GET', '/-/graphql-explorer');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/unpkg\.com|githubusercontent\.com|https?:\/\//);
    expect(res.text).toContain('/api/graphql');
    const assets = [...res.text.matchAll(/\/-\/graphql-explorer\/assets\/([\w./-]+)/g)].map((m) => m[1]!);
    expect(new Set(assets)).toEqual(
      new Set([
        'graphiql.css',
        'yoga-graphiql.umd.js',
        'monacoeditorwork/editor.worker.bundle.js',
        'monacoeditorwork/json.worker.bundle.js',
        'monacoeditorwork/graphql.worker..bundle.js',
      ]),
    );
    // Written by `npm install` (postinstall) where the Worker's [assets] and `npm start` serve them from.
    for (const a of assets) expect(existsSync(`functions/web/explorer/public/-/graphql-explorer/assets/${a}`), a).toBe(true);
  });
});
