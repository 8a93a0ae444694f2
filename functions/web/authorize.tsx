// The consent page: GET /oauth/authorize shows it, POST /oauth/authorize approves, POST /oauth/authorize/deny (or a
// `decision=deny` field) refuses. The POSTs re-check every parameter from the submitted fields (a tampered form
// asking for more scopes than the application has gets invalid_scope), and decide only with the token the page
// was rendered with for exactly that request (consent-token.ts): what is issued is what the user saw.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../lib/context.ts';
import { OAUTH_ERROR_DESCRIPTIONS } from '../lib/errors.ts';
import { repeatedParameter } from '../oauth/params.ts';
import { OAUTH_SCOPES } from '../oauth/scopes.ts';
import { canBeGranted, createAuthorizationCode, issueImplicitToken, skipsConsent, TOKEN_TYPE } from '../oauth/service.ts';
import {
  AUTHORIZE_FIELDS,
  checkAuthorizeRequest,
  errorRedirect,
  formActionSource,
  withParams,
  type AuthorizeCheck,
  type AuthorizeParams,
} from './authorize-request.ts';
import { consentToken, consentTokenOk } from './consent-token.ts';
import { ErrorPage, Layout } from './layout.tsx';
import { cspString, field, pageUser, readForm, type PageUser } from './security.ts';

export const authorizePages = new Hono<AppEnv>();

type Approved = Extract<AuthorizeCheck, { kind: 'ok' }>;

const HiddenFields = ({ p }: { p: AuthorizeParams }) => (
  <>{AUTHORIZE_FIELDS.map((name) => (p[name] !== undefined ? <input type="hidden" name={name} value={p[name]} /> : null))}</>
);

const ConsentPage = ({ u, request, p, token }: { u: PageUser; request: Approved; p: AuthorizeParams; token: string }) => (
  <Layout title="Authorize application" user={{ username: u.user.username, csrf: u.csrf }}>
    <h1>
      Authorize <span id="application_name">{request.app.name}</span> to use your account?
    </h1>
    {u.user.admin ? (
      <p class="flash alert">
        You are an admin, which means granting access to {request.app.name} will allow them to interact with GitLab as an admin as well. Proceed with caution.
      </p>
    ) : null}
    <p>
      An application called {request.app.name} is requesting access to your GitLab account. Please note that this application is not provided by GitLab and you
      should verify its authenticity before allowing access.
    </p>
    <p>
      It will be redirected to <code>{request.redirectUri}</code>.
    </p>
    <p>This application will be able to:</p>
    <ul id="oauth-scopes">
      {request.scopes.map((s) => (
        <li>
          <strong>{s}</strong>
          <br />
          <small>{OAUTH_SCOPES[s as keyof typeof OAUTH_SCOPES]}</small>
        </li>
      ))}
    </ul>
    <div class="actions">
      <form method="post" action="/oauth/authorize/deny">
        <input type="hidden" name="authenticity_token" value={token} />
        <HiddenFields p={p} />
        <button type="submit" name="decision" value="deny">
          Deny
        </button>
      </form>
      <form method="post" action="/oauth/authorize">
        <input type="hidden" name="authenticity_token" value={token} />
        <HiddenFields p={p} />
        <button type="submit" name="decision" value="authorize">
          Authorize
        </button>
      </form>
    </div>
  </Layout>
);

const ERROR_TITLES: Record<string, string> = {
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_redirect_uri: 'The redirect URI included is not valid.',
};

const errorPage = (c: Context<AppEnv>, check: { error: string; description: string }, u?: PageUser | null) =>
  c.html(
    <Layout title="An error has occurred" user={u ? { username: u.user.username, csrf: u.csrf } : undefined}>
      <h1>An error has occurred</h1>
      <p class="flash alert" id="oauth-error">
        <code>{check.error}</code>: {ERROR_TITLES[check.error] ?? check.description}
      </p>
    </Layout>,
    400,
  );

// GitLab (pre_auth.error = :unconfirmed_email): nothing is granted until the account's email is verified.
const UNCONFIRMED_EMAIL = { error: 'unconfirmed_email', description: 'Verify the email address in your account profile before you sign in.' };

const forbiddenPage = (c: Context<AppEnv>) =>
  c.html(<ErrorPage title="Forbidden" message="Your session has expired or the form is invalid. Please reload the page and try again." />, 403);

// Values with control characters or over 2,000 characters are dropped (they cannot be valid and must not reach the
// database); the request then fails its normal checks.
const usable = (v: string | undefined) => v !== undefined && v.length <= 2000 && !/[\u0000-\u001f\u007f]/.test(v);
const paramsFrom = (get: (name: string) => string | undefined): AuthorizeParams =>
  Object.fromEntries(AUTHORIZE_FIELDS.map((k) => [k, get(k)]).filter(([, v]) => usable(v))) as AuthorizeParams;

/** The authorize URL for these parameters (to come back to after signing in). */
const authorizeUrl = (p: AuthorizeParams) => `/oauth/authorize?${new URLSearchParams(p as Record<string, string>).toString()}`;

/** Issues the code (query) or the implicit token (fragment) and redirects to the client. */
async function approve(c: Context<AppEnv>, u: PageUser, request: Approved) {
  const db = c.var.ctx.db;
  if (request.responseType === 'code') {
    const code = await createAuthorizationCode({
      db,
      application: request.app,
      userId: u.user.id,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      nonce: request.nonce,
    });
    return c.redirect(withParams(request.redirectUri, { code, state: request.state }), 302);
  }
  const issued = await issueImplicitToken({ db, application: request.app, userId: u.user.id, scopes: request.scopes });
  const fragment = { access_token: issued.accessToken, token_type: TOKEN_TYPE, expires_in: String(issued.expiresIn), state: request.state };
  return c.redirect(withParams(request.redirectUri, fragment, true), 302);
}

authorizePages.get('/oauth/authorize', async (c) => {
  const p = paramsFrom((k) => c.req.query(k));
  const check = await checkAuthorizeRequest(c.var.ctx, p, repeatedParameter(c.req.queries()));
  if (check.kind === 'page') return errorPage(c, check);
  // RFC 9700 §4.11.2: authenticate the user before any redirect to the client, even an error redirect, so the
  // endpoint cannot serve as an open redirector to whatever URI someone registered.
  const u = await pageUser(c);
  if (!u) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(authorizeUrl(p))}`, 302);
  if (check.kind === 'redirect') return c.redirect(check.location, 302);
  if (!canBeGranted(u.user)) return errorPage(c, UNCONFIRMED_EMAIL, u);
  if (await skipsConsent(c.var.ctx, check.app, u.user.id, check.scopes)) return approve(c, u, check);
  // Browsers apply form-action to the redirect that follows the form submission: allow the client's origin.
  const source = formActionSource(check.redirectUri);
  c.header('Content-Security-Policy', cspString(source ? ["'self'", source] : ["'self'"]));
  return c.html(<ConsentPage u={u} request={check} p={p} token={await consentToken(u.session, check)} />);
});

async function decide(c: Context<AppEnv>, deny: boolean) {
  const form = await readForm(c);
  const p = paramsFrom((k) => field(form, k));
  const repeated = AUTHORIZE_FIELDS.find((k) => Array.isArray(form[k]));
  const u = await pageUser(c);
  if (!u) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(authorizeUrl(p))}`, 302);
  // A request that fails its checks is answered as GET /oauth/authorize would answer it, and issues nothing; one
  // that passes them is decided only with the token of the page that displayed exactly this request.
  const check = await checkAuthorizeRequest(c.var.ctx, p, repeated);
  if (check.kind === 'page') return errorPage(c, check, u);
  if (check.kind === 'redirect') return c.redirect(check.location, 302);
  if (!(await consentTokenOk(u.session, check, field(form, 'authenticity_token')))) return forbiddenPage(c);
  if (deny || field(form, 'decision') === 'deny') {
    return c.redirect(
      errorRedirect(check.redirectUri, 'access_denied', check.state, check.responseType === 'token', OAUTH_ERROR_DESCRIPTIONS.access_denied),
      302,
    );
  }
  if (!canBeGranted(u.user)) return errorPage(c, UNCONFIRMED_EMAIL, u);
  return approve(c, u, check);
}

authorizePages.post('/oauth/authorize', (c) => decide(c, false));
authorizePages.post('/oauth/authorize/deny', (c) => decide(c, true));
