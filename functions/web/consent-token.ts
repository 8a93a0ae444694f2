// The consent forms' authenticity token is bound to the request the page displayed: an HMAC-SHA256 keyed by the
// session id (only the HttpOnly cookie carries it) over the client, redirect URI, response type, scopes, state, PKCE
// challenge and nonce. It is the CSRF token of those forms (another session cannot make it) and the proof of what
// the user saw: a POST that changes any of these (scope=api under a page that showed read_user) carries a token
// that no longer matches, and nothing is issued. Nothing is stored; like Rails' per-form CSRF tokens, the page
// carries it.
import { constantTimeEqual, hmacSha256Hex } from '../lib/crypto.ts';
import type { AuthorizeCheck } from './authorize-request.ts';

type Displayed = Extract<AuthorizeCheck, { kind: 'ok' }>;

const displayed = (r: Displayed) =>
  JSON.stringify(['oauth-consent', r.app.uid, r.redirectUri, r.responseType, r.scopes, r.state ?? null, r.codeChallenge, r.codeChallengeMethod, r.nonce]);

/** The token the consent page puts in its Authorize and Deny forms. */
export const consentToken = (sessionValue: string, request: Displayed) => hmacSha256Hex(sessionValue, displayed(request));

/** Whether `presented` is the token this session's consent page rendered for exactly this request. */
export async function consentTokenOk(sessionValue: string, request: Displayed, presented: string | undefined) {
  return !!presented && constantTimeEqual(await consentToken(sessionValue, request), presented);
}
