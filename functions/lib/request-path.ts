// GitLab's router squeezes repeated `/` in a path and ignores a trailing one (Rails' Journey normalises the path
// before matching), and clients rely on it: python-gitlab sends `POST /api/v4/features//NAME`. The request is
// rewritten before routing (never redirected, which would turn a POST into a GET), so routes, the Link URLs built
// from the request and GraphQL's endpoint check all see the one path. The query string is left as sent.

/** `pathname` with runs of `/` squeezed to one and no trailing `/` (the root stays `/`). */
export function normalisePath(pathname: string): string {
  const squeezed = pathname.replace(/\/{2,}/g, '/');
  return squeezed.length > 1 && squeezed.endsWith('/') ? squeezed.slice(0, -1) : squeezed;
}

/** The request itself when its path is already normal, else the same request (method, headers, body) at the normal path. */
export function withNormalPath(request: Request): Request {
  const url = new URL(request.url);
  const pathname = normalisePath(url.pathname);
  if (pathname === url.pathname) return request;
  url.pathname = pathname;
  return new Request(url, request);
}

/** The client's IP as Cloudflare reports it (`npm start` and tests set the same header). */
export const clientIp = (c: { req: { header(name: string): string | undefined } }) => c.req.header('cf-connecting-ip') ?? 'unknown';
