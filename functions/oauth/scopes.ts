// GitLab's OAuth scopes, with the descriptions shown on the consent and applications pages.
export const OAUTH_SCOPES = {
  api: 'Grants complete read/write access to the API, including all groups and projects.',
  read_api: 'Grants read access to the API, including all groups and projects.',
  read_user: "Grants read-only access to the authenticated user's profile through the /user API endpoint.",
  read_repository: 'Grants read-only access to repositories on private projects.',
  write_repository: 'Grants read-write access to repositories on private projects.',
  read_registry: 'Grants read-only access to container registry images on private projects.',
  write_registry: 'Grants write access to container registry images on private projects.',
  sudo: 'Grants permission to perform API actions as any user in the system, when authenticated as an admin user.',
  openid: "Grants permission to authenticate with GitLab using OpenID Connect. Also gives read-only access to the user's profile and group memberships.",
  profile: "Grants read-only access to the user's profile data using OpenID Connect.",
  email: "Grants read-only access to the user's primary email address using OpenID Connect.",
} as const;

export type OAuthScope = keyof typeof OAUTH_SCOPES;
export const OAUTH_SCOPE_NAMES = Object.keys(OAUTH_SCOPES) as OAuthScope[];
/** The scopes whose meaning is OpenID Connect's (an id_token and userinfo claims). */
export const OIDC_SCOPES: ReadonlySet<OAuthScope> = new Set(['openid', 'profile', 'email']);
/** Doorkeeper's default_scopes: a request without `scope` gets `api`. */
export const DEFAULT_SCOPES: OAuthScope[] = ['api'];

export const isOAuthScope = (s: string): s is OAuthScope => Object.hasOwn(OAUTH_SCOPES, s);

/** `scope` as sent (space-separated, `+` already decoded) into a de-duplicated list. */
export const parseScopes = (value: string | undefined | null) => [...new Set((value ?? '').split(/\s+/).filter(Boolean))];

/**
 * The scopes a request may get from an application: all must be known and registered for it; none asked means the
 * default. Returns null for `invalid_scope`.
 */
export function resolveRequestedScopes(requested: string[], allowed: readonly string[]): string[] | null {
  const scopes = requested.length ? requested : DEFAULT_SCOPES.filter((s) => allowed.includes(s));
  if (!scopes.length) return null;
  return scopes.every((s) => isOAuthScope(s) && allowed.includes(s)) ? scopes : null;
}
