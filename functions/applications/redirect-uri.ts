// The one redirect URI rule, used by the admin API and the applications page (Doorkeeper's RedirectUriValidator
// with this project's decisions, security-bar §7.4): absolute, no fragment, no script/data/file schemes, no control
// characters. `http` is allowed (loopback and development clients). redirectUriMatches() is the comparison at
// /oauth/authorize and /oauth/token alike.

export const REDIRECT_URI_MESSAGES = {
  blank: "can't be blank",
  invalid: 'must be a valid URI.',
  relative: 'must be an absolute URI.',
  fragment: 'cannot contain a fragment.',
  forbidden: 'is forbidden by the server.',
} as const;

const FORBIDDEN_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file']);
// C0 and C1 controls and DEL (whitespace separates URIs, so it never reaches a single URI).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The message for one URI, or null when it is acceptable. */
export function redirectUriProblem(uri: string): string | null {
  if (CONTROL.test(uri) || /\s/.test(uri)) return REDIRECT_URI_MESSAGES.invalid;
  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  if (!scheme) return REDIRECT_URI_MESSAGES.relative;
  if (FORBIDDEN_SCHEMES.has(scheme)) return REDIRECT_URI_MESSAGES.forbidden;
  if (uri.includes('#')) return REDIRECT_URI_MESSAGES.fragment;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return REDIRECT_URI_MESSAGES.invalid;
  }
  // Web schemes need an authority; native-app schemes (`com.example.app:/callback`) need at least a path.
  if ((scheme === 'http' || scheme === 'https') && (!/^https?:\/\//i.test(uri) || !parsed.hostname)) return REDIRECT_URI_MESSAGES.relative;
  if (uri.length === scheme.length + 1) return REDIRECT_URI_MESSAGES.relative;
  return null;
}

/**
 * Splits the submitted value (one or more URIs separated by newlines or other whitespace) and checks each.
 * Returns the URIs, de-duplicated in order, or the messages for `redirect_uri`.
 */
export function parseRedirectUris(raw: string): { ok: true; uris: string[] } | { ok: false; errors: string[] } {
  const uris = [...new Set(raw.split(/[ \t\n\r\f\v]+/).filter(Boolean))];
  if (!uris.length) return { ok: false, errors: [REDIRECT_URI_MESSAGES.blank] };
  const errors = [...new Set(uris.map(redirectUriProblem).filter((m): m is string => m !== null))];
  return errors.length ? { ok: false, errors } : { ok: true, uris };
}

// RFC 8252 §7.3's loopback redirect: `http`, an IP literal (not `localhost`, §8.3), an optional canonical port, then
// path and query compared as strings.
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([1-9][0-9]{0,4}))?([/?].*)?$/;

function withoutLoopbackPort(uri: string): string | null {
  const m = LOOPBACK.exec(uri);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return null;
  return `http://${m[1]}${m[3] ?? ''}`;
}

/**
 * Whether a redirect URI sent by a client is the registered one: simple string comparison (RFC 6749 §3.1.2.3,
 * RFC 9700 §2.1), except that an IP-literal loopback URI may name any port on either side, since native apps listen
 * on whatever port the system gives them (RFC 8252 §7.3). Doorkeeper's URIChecker.matches? serves both endpoints too.
 */
export function redirectUriMatches(presented: string, registered: string): boolean {
  if (presented === registered) return true;
  const loopback = withoutLoopbackPort(presented);
  return loopback !== null && loopback === withoutLoopbackPort(registered);
}
