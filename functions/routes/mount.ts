// Lazy mounting (cold start). Every route is registered up front from the generated manifest (manifest.ts), so
// matching, 404s, 405s and the middleware's "is this an endpoint" test are exactly what mounting the group's Hono app
// with `route()` gives; each registered handler is a stub that loads its group on first use and calls the handler at
// the same index with the same (c, next). The handlers called are those `route()` makes (the loaded app mounted on
// a scratch app), so a group's own onError (OAuth's) wraps its handlers as it would when mounted. A group's modules
// (its routes, services, queries and what only they import) are evaluated by the first request that needs them, not
// by every isolate: with esbuild's bundling they stay wrapped until imported.
import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { DOMAINS, type Domain } from './domains.ts';
import { ROUTE_MANIFEST, type ManifestEntry } from './manifest.ts';

type RouteHandler = MiddlewareHandler<AppEnv>;

const loaded = new Map<Domain, RouteHandler[]>();
const loading = new Map<Domain, Promise<RouteHandler[]>>();

function load(domain: Domain): Promise<RouteHandler[]> {
  let p = loading.get(domain);
  if (!p) {
    p = DOMAINS[domain]().then((app) => {
      const mounted = new Hono<AppEnv>().route('/', app);
      const handlers = mounted.routes.map((r) => r.handler as RouteHandler);
      loaded.set(domain, handlers);
      return handlers;
    });
    // A failed import is retried by the next request rather than cached.
    p.catch(() => loading.delete(domain));
    loading.set(domain, p);
  }
  return p;
}

/** The manifest's runs ([method, path, handler count]) as one route entry per handler, in order. */
export function expandManifest(entries: readonly ManifestEntry[]): Array<{ method: string; path: string }> {
  return entries.flatMap(([method, path, count]) => Array.from({ length: count }, () => ({ method, path })));
}

/** Registers the groups' routes on `target` in the given order, each handler loading its group on first use. */
export function mountLazily(target: Hono<AppEnv>, domains: readonly Domain[]) {
  for (const domain of domains) {
    expandManifest(ROUTE_MANIFEST[domain]).forEach(({ method, path }, index) => {
      const stub: RouteHandler = (c, next) => {
        const handlers = loaded.get(domain);
        if (handlers) return handlers[index]!(c, next);
        return load(domain).then((h) => h[index]!(c, next));
      };
      target.on(method, path, stub);
    });
  }
}
