// Test helpers for the features suites: reading one feature back through GET /features (walking its pages), and a
// request context on the test database for calling isFeatureEnabled directly.
import { expect } from 'vitest';
import { anonymous, type RequestContext } from '../../../functions/lib/context.ts';
import { api, testDb } from '../../helpers/app.ts';

/** The feature as GET /features lists it (undefined when not persisted). */
export async function listedFeature(token: string, name: string) {
  for (let page = '1'; page;) {
    const res = await api.get('/features', { token, query: { page, per_page: '100' } });
    expect(res.status).toBe(200);
    const found = (res.body as any[]).find((f) => f.name === name);
    if (found) return found;
    page = res.headers.get('x-next-page')!;
  }
  return undefined;
}

/** A RequestContext on the test database, for calling isFeatureEnabled directly. */
export function createRequestContextForTest(): RequestContext & { executed: () => number } {
  const { db, batch, transaction } = testDb();
  let executed = 0;
  const counted = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'execute') return (...args: unknown[]) => (executed++, (value as (...a: unknown[]) => unknown).apply(target, args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    requestId: 'test',
    enqueued: new Set(),
    config: {} as RequestContext['config'],
    db: counted,
    batch,
    transaction: transaction as RequestContext['transaction'],
    actor: anonymous,
    stats: { queries: 0, ms: 0 },
    waitUntil: () => undefined,
    memo: new Map(),
    executed: () => executed,
  };
}
