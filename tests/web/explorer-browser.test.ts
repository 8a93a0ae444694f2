// The GraphQL explorer in a real browser with every non-loopback request blocked: GraphiQL loads from our own
// assets and runs a query against /api/graphql (headless Debian chromium via playwright-core).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp } from '../helpers/app.ts';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('browser: the GraphQL explorer works offline (chromium)', () => {
  let served: Awaited<ReturnType<typeof serveTestApp>>;
  let context: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    served = await serveTestApp({ explorerAssets: true });
    userDataDir = mkdtempSync(join(tmpdir(), 'chromium-explorer-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await served?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  it('renders GraphiQL from local assets and runs the default query', { timeout: 90_000 }, async () => {
    const page = await context.newPage();
    const external: string[] = [];
    const failed: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
      external.push(url.href);
      return route.abort();
    });
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${served.url}/-/graphql-explorer`);
    await page.waitForSelector('.graphiql-container', { timeout: 60_000 });
    const response = page.waitForResponse(
      (r) => r.url().endsWith('/api/graphql') && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('metadata'),
    );
    await page.click('.graphiql-execute-button');
    const res = await response;
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ data: { currentUser: null, metadata: { version: '13.6.0' } } });
    await page.waitForFunction(() => document.body.innerText.includes('13.6.0'), undefined, { timeout: 30_000 });
    expect(external).toEqual([]);
    expect(failed).toEqual([]);
  });
});
