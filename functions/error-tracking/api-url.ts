// The tracker's project API URL: GitLab's ProjectErrorTrackingSetting rules (API_URL_PATH_REGEXP, the public_url
// and url validators, project_slug/organization_slug and the external URL), as pure functions.
//
// Where this is stricter than GitLab, on purpose:
//  - https only ("is blocked: Only allowed schemes are https"): the auth token is sent to this URL;
//  - the URL checks run whenever an api_url is given, not only when the setting is enabled (a disabled setting
//    with an unusable URL cannot be enabled later by PATCH anyway);
//  - hosts are checked as written (no DNS here): localhost names and loopback, private, link-local and
//    unspecified IP literals are refused, as GitLab's UrlBlocker does for public_url.

/** GitLab's API_URL_PATH_REGEXP: `/api/0/projects/` then, optionally, `{organization}/{project}` (slashes may repeat). */
const API_URL_PATH = /^(?<prefix>\/api\/0\/projects\/+)(?:(?<organization>[^/]+)\/+(?<project>[^/]+)\/*)?$/;

export const API_URL_MAX_LENGTH = 255;

export interface ApiUrlParts {
  /** `https://host[:port]` */
  origin: string;
  /** The path segments as written (percent-escapes kept), for URLs. */
  organizationSlug: string;
  projectSlug: string;
  /** The same, decoded: what the setting stores as organization_name and project_name. */
  organization: string;
  project: string;
}

/** Model errors keyed as GitLab reports them (`api_url`, and `project` when the slugs are missing). */
export type ApiUrlErrors = Partial<Record<'api_url' | 'project', string[]>>;

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

function isLocalhostName(host: string) {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** IPv4 literal as four octets (WHATWG URL has already normalised forms like `0x7f.1` and `2130706433`). */
function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? m.slice(1).map(Number) : null;
}

type HostClass = 'public' | 'localhost' | 'local network' | 'link local network';

function classifyIpv4([a, b]: number[]): HostClass {
  if (a === 127 || a === 0) return 'localhost';
  if (a === 169 && b === 254) return 'link local network';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127)) return 'local network';
  return 'public';
}

/** `[..]` IPv6 literal (WHATWG URL gives it compressed, lower-case). */
function classifyIpv6(literal: string): HostClass {
  const ip = literal.slice(1, -1);
  if (ip === '::1' || ip === '::') return 'localhost';
  // IPv4-mapped (::ffff:a.b.c.d, shown by URL as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return classifyIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (/^fe[89ab][0-9a-f]?:/.test(ip)) return 'link local network';
  if (/^f[cd][0-9a-f]{0,2}:/.test(ip)) return 'local network';
  return 'public';
}

function classifyHost(hostname: string): HostClass {
  if (hostname.startsWith('[')) return classifyIpv6(hostname);
  const v4 = ipv4(hostname);
  if (v4) return classifyIpv4(v4);
  return isLocalhostName(hostname.replace(/\.$/, '')) ? 'localhost' : 'public';
}

const BLOCKED: Record<Exclude<HostClass, 'public'>, string> = {
  localhost: 'is blocked: Requests to localhost are not allowed',
  'local network': 'is blocked: Requests to the local network are not allowed',
  'link local network': 'is blocked: Requests to the link local network are not allowed',
};

/**
 * Validates an api_url and splits it into the parts the setting stores. Errors use GitLab's messages: "must be a
 * valid URL" (not a URL), "is blocked: ..." (scheme, host, non-ASCII, HTML), "is invalid" (the path is not
 * `/api/0/projects/{org}/{project}/`), `project` "is a required field" (the path stops after `/api/0/projects/`).
 */
export function parseApiUrl(value: string): { ok: true; parts: ApiUrlParts } | { ok: false; errors: ApiUrlErrors } {
  const fail = (message: string, key: 'api_url' | 'project' = 'api_url') => ({ ok: false as const, errors: { [key]: [message] } });
  if (value.length > API_URL_MAX_LENGTH) return fail(`is too long (maximum is ${API_URL_MAX_LENGTH} characters)`);
  // ascii_only: checked on the text as given, before URL parsing turns it into punycode or percent-escapes.
  if (/[^\x00-\x7f]/.test(value)) return fail('is blocked: URI must be ascii only');
  if (/[\x00-\x20\x7f]/.test(value)) return fail('must be a valid URL');
  // enforce_sanitization: no HTML/CSS/JS tags, raw or percent-encoded.
  if (/[<>]/.test(decode(value))) return fail('is blocked: HTML/CSS/JS tags are not allowed');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('must be a valid URL');
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || !url.hostname) return fail('must be a valid URL');
  if (url.protocol !== 'https:') return fail('is blocked: Only allowed schemes are https');
  const hostClass = classifyHost(url.hostname);
  if (hostClass !== 'public') return fail(BLOCKED[hostClass]);
  const match = API_URL_PATH.exec(url.pathname);
  if (!match) return fail('is invalid');
  const { organization, project } = match.groups!;
  if (!organization || !project) return fail('is a required field', 'project');
  return {
    ok: true,
    parts: { origin: url.origin, organizationSlug: organization, projectSlug: project, organization: decode(organization), project: decode(project) },
  };
}

/**
 * The tracker's web address for the project. GitLab drops `api/0/projects/` from the api_url; built from the parts
 * here so the result is canonical (`https://sentry.example.com/myorg/myproject`, no trailing slash).
 */
export function trackerExternalUrl(apiUrl: string | null): string | null {
  if (!apiUrl) return null;
  const parsed = parseApiUrl(apiUrl);
  if (!parsed.ok) return null;
  const { origin, organizationSlug, projectSlug } = parsed.parts;
  return `${origin}/${organizationSlug}/${projectSlug}`;
}
