// Lazy mounting of the REST domains (cold start). Every route is registered up front from the generated manifest
// (manifest.ts), so matching, 404s, 405s and the middleware's "is this an endpoint" test are exactly what mounting
// the domain's Hono app with `route()` gives; each registered handler is a stub that loads its domain on first use
// and calls the real handler at the same index with the same (c, next). A domain's modules (its routes, services,
// queries and what only they import) are then evaluated by the first request that needs them, not by every
// isolate: with esbuild's bundling they stay wrapped until imported.
import type { Handler, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { API_DOMAINS, type ApiDomain } from './domains.ts';
import { ROUTE_MANIFEST, type ManifestEntry } from './manifest.ts';

type RouteHandler = Handler<AppEnv> | MiddlewareHandler<AppEnv>;

const loaded = new Map<ApiDomain, RouteHandler[]>();
const loading = new Map<ApiDomain, Promise<RouteHandler[]>>();

function load(domain: ApiDomain): Promise<RouteHandler[]> {
  let p = loading.get(domain);
  if (!p) {
    p = API_DOMAINS[domain]().then((app) => {
      const handlers = app.routes.map((r) => r.handler as RouteHandler);
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

/** Registers every domain's routes on `api` in mount order, each handler loading its domain on first use. */
export function mountApiDomains(api: Hono<AppEnv>) {
  for (const domain of Object.keys(API_DOMAINS) as ApiDomain[]) {
    expandManifest(ROUTE_MANIFEST[domain]).forEach(({ method, path }, index) => {
      const stub: MiddlewareHandler<AppEnv> = (c, next) => {
        const handlers = loaded.get(domain);
        if (handlers) return handlers[index]!(c, next) as ReturnType<MiddlewareHandler<AppEnv>>;
        return load(domain).then((h) => h[index]!(c, next)) as ReturnType<MiddlewareHandler<AppEnv>>;
      };
      api.on(method, path, stub);
    });
  }
}
