// The rules of an authorization request (GET /oauth/authorize and the consent forms' POSTs), in Doorkeeper's
// order: client and redirect URI first, and while either is wrong nothing ever redirects (RFC 6749 §4.1.2.1,
// security-bar §0.1); then response type, scope and PKCE, whose errors go back to the client's redirect URI.
import type { OAuthApplicationRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { OAUTH_ERROR_DESCRIPTIONS, type OAuthErrorCode } from '../lib/errors.ts';
import { redirectUriMatches } from '../applications/redirect-uri.ts';
import { findApplicationByClientId } from '../applications/service.ts';
import { isFeatureEnabled } from '../features/evaluate.ts';
import { repeatedDescription } from '../oauth/params.ts';
import { parseScopes, resolveRequestedScopes } from '../oauth/scopes.ts';

export const AUTHORIZE_FIELDS = ['client_id', 'redirect_uri', 'response_type', 'state', 'scope', 'nonce', 'code_challenge', 'code_challenge_method'] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_FIELDS)[number], string>>;

export type AuthorizeCheck =
  /** Never redirected: shown as an error page. */
  | { kind: 'page'; error: OAuthErrorCode | 'invalid_redirect_uri'; description: string }
  /** Sent back to the (validated) redirect URI. */
  | { kind: 'redirect'; location: string }
  | {
      kind: 'ok';
      app: OAuthApplicationRow;
      redirectUri: string;
      responseType: 'code' | 'token';
      scopes: string[];
      state: string | undefined;
      codeChallenge: string | null;
      codeChallengeMethod: 'S256' | 'plain' | null;
      nonce: string | null;
    };

/** The name of one `name=value` piece of a form-encoded component; null when its encoding is broken. */
function pieceName(piece: string): string | null {
  try {
    return decodeURIComponent(piece.split('=', 1)[0]!.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** `component` (a query or fragment without its `?`/`#`) with `params` added: a piece of the same name is dropped. */
function merge(component: string | undefined, params: [string, string][]): string {
  const names = new Set(params.map(([k]) => k));
  // The registered pieces are kept byte for byte (re-encoding would change what the client registered).
  const kept = (component ?? '').split('&').filter((piece) => piece !== '' && !names.has(pieceName(piece) ?? ''));
  return [...kept, new URLSearchParams(params).toString()].filter(Boolean).join('&');
}

/**
 * The authorization response: `params` added to the redirect URI's query or, for the implicit flow, its fragment.
 * The registered URI's own query is retained (RFC 6749 §3.1.2), but a parameter of the response replaces one of the
 * same name there instead of appearing twice (§3.1: no parameter more than once).
 */
export function withParams(uri: string, params: Record<string, string | undefined>, inFragment = false): string {
  const entries = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  const hash = uri.indexOf('#');
  const beforeHash = hash < 0 ? uri : uri.slice(0, hash);
  const fragment = hash < 0 ? undefined : uri.slice(hash + 1);
  if (inFragment) return `${beforeHash}#${merge(fragment, entries)}`;
  const question = beforeHash.indexOf('?');
  const base = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? undefined : beforeHash.slice(question + 1);
  return `${base}?${merge(query, entries)}${fragment === undefined ? '' : `#${fragment}`}`;
}

/** The redirect for an OAuth error, with `state` exactly as sent. */
export const errorRedirect = (
  uri: string,
  error: OAuthErrorCode,
  state: string | undefined,
  inFragment: boolean,
  description: string = OAUTH_ERROR_DESCRIPTIONS[error],
) => withParams(uri, { error, error_description: description, state }, inFragment);

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
const PAGE_DESCRIPTIONS = {
  missing_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_redirect_uri: 'The redirect URI included is not valid.',
};

/**
 * Validates client and redirect URI, the checks whose failure is never redirected. `repeated` is a parameter the
 * request carried more than once (RFC 6749 §3.1): a repeated client_id or redirect_uri cannot be trusted to redirect to.
 */
async function checkClient(
  ctx: RequestContext,
  p: AuthorizeParams,
  repeated?: string,
): Promise<
  { kind: 'page'; error: OAuthErrorCode | 'invalid_redirect_uri'; description: string } | { kind: 'ok'; app: OAuthApplicationRow; redirectUri: string }
> {
  if (repeated === 'client_id' || repeated === 'redirect_uri') return { kind: 'page', error: 'invalid_request', description: repeatedDescription(repeated) };
  const app = p.client_id && p.client_id.length <= 128 ? await findApplicationByClientId(ctx, p.client_id) : undefined;
  if (!app) return { kind: 'page', error: 'invalid_client', description: PAGE_DESCRIPTIONS.missing_client };
  // Exact string comparison with a registered URI (but for a loopback port): no normalisation, no prefix matching.
  const presented = p.redirect_uri;
  if (!presented || !app.redirectUris.some((registered) => redirectUriMatches(presented, registered))) {
    return { kind: 'page', error: 'invalid_redirect_uri', description: PAGE_DESCRIPTIONS.invalid_redirect_uri };
  }
  return { kind: 'ok', app, redirectUri: presented };
}

export async function checkAuthorizeRequest(ctx: RequestContext, p: AuthorizeParams, repeated?: string): Promise<AuthorizeCheck> {
  const client = await checkClient(ctx, p, repeated);
  if (client.kind !== 'ok') return client;
  const { app, redirectUri } = client;
  const state = p.state;
  const responseType = p.response_type;
  if (repeated)
    return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', state, responseType === 'token', repeatedDescription(repeated)) };
  if (responseType !== 'code' && responseType !== 'token') {
    return {
      kind: 'redirect',
      location: errorRedirect(
        redirectUri,
        responseType ? 'unsupported_response_type' : 'invalid_request',
        state,
        false,
        responseType
          ? undefined
          : 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed. Missing required parameter: response_type.',
      ),
    };
  }
  const implicit = responseType === 'token';
  // The instance switch (feature flag `oauth_implicit_grant`, on by default): a disabled flow is an unsupported type.
  if (implicit && !(await isFeatureEnabled(ctx, 'oauth_implicit_grant'))) {
    return { kind: 'redirect', location: errorRedirect(redirectUri, 'unsupported_response_type', state, false) };
  }
  const scopes = resolveRequestedScopes(parseScopes(p.scope), app.scopes);
  if (!scopes) return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_scope', state, implicit) };

  let codeChallenge: string | null = null;
  let codeChallengeMethod: 'S256' | 'plain' | null = null;
  if (!implicit) {
    if (p.code_challenge) {
      const method = p.code_challenge_method || 'plain';
      if (method !== 'S256' && method !== 'plain') {
        return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', state, false, 'The code challenge method must be plain or S256.') };
      }
      if (!CHALLENGE.test(p.code_challenge)) {
        return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', state, false, 'The code challenge is malformed.') };
      }
      codeChallenge = p.code_challenge;
      codeChallengeMethod = method;
    } else if (p.code_challenge_method) {
      return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', state, false, 'Missing required parameter: code_challenge.') };
    } else if (!app.confidential) {
      // A public client cannot authenticate at the token endpoint: PKCE is its only proof of possession.
      return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', state, false, 'Missing required parameter: code_challenge.') };
    }
  }
  return { kind: 'ok', app, redirectUri, responseType, scopes, state, codeChallenge, codeChallengeMethod, nonce: p.nonce || null };
}

/** The `form-action` source that lets the consent form's redirect reach the client (origin, or a native scheme). */
export function formActionSource(redirectUri: string): string | null {
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : null;
  } catch {
    return null;
  }
}
