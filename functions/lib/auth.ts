// Authentication: one resolver turns whatever credential the request carries into an Actor, and one table says
// which token scopes reach which endpoints. Routes and services never look at headers or scopes themselves.
import type { Context, MiddlewareHandler } from 'hono';
import type { UserRow } from '../../db/schema/index.ts';
import type { AppEnv } from './context.ts';
import { anonymous, type Actor, type RequestContext } from './context.ts';
import { forbidden, insufficientScope, invalidToken, notFound, unauthorized } from './errors.ts';
import { sha256Hex } from './crypto.ts';
import { getCookie } from 'hono/cookie';
import {
  findOAuthTokenByDigest,
  findPersonalAccessTokenByDigest,
  findUserByRef,
  markOAuthTokenUsed,
  recordUserActivity,
  touchPersonalAccessToken,
} from '../../db/queries/lib/auth.ts';
import { tokenState } from './token-state.ts';
import { currentSession, SESSION_COOKIE, validCsrf } from './session.ts';

/**
 * The actor of work a user caused outside a request of theirs (a merge when the pipeline succeeds, the merge
 * requests a push updates): the user with the `api` scope, as GitLab's workers act as `current_user`.
 */
export const userActor = (user: UserRow): Actor => ({ user, scopes: ['api'], via: null });

/** Another user as the policy would meet them (who may read a to-do's target, a notification's): no token, no scopes. */
export const readerActor = (user: UserRow): Actor => ({ user, scopes: [], via: null });

/** Where a token was found. (A browser session is the fallback when no token is present.) */
export interface Credential {
  value: string;
  /** `PRIVATE-TOKEN`/`private_token` can only be personal tokens; Bearer/`access_token` may be OAuth tokens too. */
  kinds: ReadonlyArray<'personal_access_token' | 'oauth_token'>;
}

/** The query parameters that carry a credential (kept out of every URL the service builds from the request's). */
export const CREDENTIAL_QUERY_PARAMS = ['private_token', 'access_token', 'bearer_token'] as const;

function findCredential(c: Context<AppEnv>): Credential | null {
  const header = c.req.header('private-token');
  if (header) return { value: header.trim(), kinds: ['personal_access_token'] };
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
  if (bearer) return { value: bearer[1]!.trim(), kinds: ['oauth_token', 'personal_access_token'] };
  const privateToken = c.req.query('private_token');
  if (privateToken) return { value: privateToken, kinds: ['personal_access_token'] };
  const accessToken = c.req.query('access_token') || c.req.query('bearer_token');
  if (accessToken) return { value: accessToken, kinds: ['oauth_token', 'personal_access_token'] };
  return null;
}

type TokenResolver = (ctx: RequestContext, digest: string) => Promise<Actor | null>;

/** Whether the user's activity of today is not recorded yet (last_activity_on is a day). */
const inactiveToday = (user: UserRow) => user.lastActivityOn !== new Date().toISOString().slice(0, 10);

/** Personal access tokens: unknown -> not ours; revoked/expired -> GitLab's invalid_token answers. */
const personalAccessToken: TokenResolver = async (ctx, digest) => {
  const found = await findPersonalAccessTokenByDigest(ctx.db, digest);
  if (!found) return null;
  const { token, user } = found;
  if (token.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  if (token.expiresAt && token.expiresAt <= new Date().toISOString().slice(0, 10)) {
    throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  }
  const stale = !token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > 10 * 60 * 1000;
  const activity = inactiveToday(user) ? user.id : null;
  if (stale) ctx.waitUntil(touchPersonalAccessToken(ctx.db, token.id, activity).catch(() => undefined));
  else if (activity !== null) ctx.waitUntil(recordUserActivity(ctx.db, activity).catch(() => undefined));
  return { user, scopes: token.scopes, via: 'personal_access_token', tokenId: token.id };
};

/** OAuth access tokens: revoked/expired -> the same invalid_token answers as GitLab's APIGuard. */
const oauthToken: TokenResolver = async (ctx, digest) => {
  const found = await findOAuthTokenByDigest(ctx.db, digest);
  if (!found) return null;
  const state = tokenState(found.token);
  if (state === 'revoked') throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  if (state === 'expired') throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  const activity = found.user && inactiveToday(found.user) ? found.user.id : null;
  if (!found.token.firstUsedAt) ctx.waitUntil(markOAuthTokenUsed(ctx.db, found.token.id, activity).catch(() => undefined));
  else if (activity !== null) ctx.waitUntil(recordUserActivity(ctx.db, activity).catch(() => undefined));
  return { user: found.user, scopes: found.token.scopes, via: 'oauth_token', tokenId: found.token.id };
};

const resolvers: Record<Credential['kinds'][number], TokenResolver> = {
  personal_access_token: personalAccessToken,
  oauth_token: oauthToken,
};

/**
 * The browser session, as GitLab's API accepts it: for REST reads, or for REST writes and any GraphQL request that
 * carry the session's CSRF token in `X-CSRF-Token` (without one the request is treated as anonymous, never as an
 * error). GraphQL's GET is no exception: its method says nothing about what the operation reads, and GitLab's
 * GraphqlController checks the token for every method.
 */
async function sessionActor(c: Context<AppEnv>, ctx: RequestContext, api: Surface['api']): Promise<Actor | null> {
  const session = await currentSession(c, ctx);
  if (!session) return null;
  const safe = (api === 'rest' && READ_METHODS.has(c.req.method)) || (await validCsrf(session.value, c.req.header('x-csrf-token')));
  return safe ? { user: session.user, scopes: [], via: 'session' } : null;
}

/** GitLab's message for users who may not use the API (`api_access_denied_message`). */
function assertActive(user: UserRow) {
  if (user.state === 'blocked') throw forbidden('Your account has been blocked.');
}

// ---- Scopes: the one table of which scopes reach which endpoints ----

/**
 * GitLab's read requests: what `read_api` and `read_user` reach, what a session may send without its CSRF token, and
 * what an anonymous caller may send to an endpoint (Grape's `authenticate_non_get!`). OPTIONS never gets this far:
 * CORS answers it first.
 */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** What a request does: REST derives it from the HTTP method, GraphQL from the operation (query or mutation). */
export type Access = 'read' | 'write';
const accessOf = (method: string): Access => (READ_METHODS.has(method) ? 'read' : 'write');

/** Where a token is used: a REST endpoint, by its path, or the GraphQL API. */
export type Surface = { api: 'rest'; path: string } | { api: 'graphql' };

/** One `allow_access_with_scope` registration: the scope, and whether it is good for reads only. */
interface ScopeRule {
  scope: string;
  readOnly?: true;
}

/** API::API's registrations, which every endpoint inherits (and all that GraphQL registers). */
const API_SCOPES: readonly ScopeRule[] = [{ scope: 'api' }, { scope: 'read_api', readOnly: true }];

/** Endpoint classes that register more (GitLab's API::Users, API::Events, API::Version). */
const ENDPOINT_SCOPES: ReadonlyArray<{ path: RegExp; rules: readonly ScopeRule[] }> = [
  // API::Users: /user, /user/*, /users and /users/:id/* except what the projects and events classes serve there.
  { path: /^\/api\/v4\/(user(\/.*)?|users(\/(?![^/]+\/(projects|starred_projects|events)(\/|$)).*)?)$/, rules: [{ scope: 'read_user', readOnly: true }] },
  { path: /^\/api\/v4\/(events|users\/[^/]+\/events)$/, rules: [{ scope: 'read_user', readOnly: true }] },
  { path: /^\/api\/v4\/version$/, rules: [{ scope: 'read_user' }] },
  // API::Files: `allow_access_with_scope :read_repository, if: get? || head?` (the other repository classes do not).
  { path: /^\/api\/v4\/projects\/[^/]+\/repository\/files\/[^/]+(\/raw|\/blame)?$/, rules: [{ scope: 'read_repository', readOnly: true }] },
];

/** The scopes registered for a surface, in GitLab's order: a REST endpoint class's first, then API::API's. */
function registeredScopes(surface: Surface): readonly ScopeRule[] {
  if (surface.api === 'graphql') return API_SCOPES; // read_user, read_repository, ... do not reach GraphQL
  const endpoint = ENDPOINT_SCOPES.find((e) => e.path.test(surface.path));
  return [...(endpoint?.rules ?? []), ...API_SCOPES];
}

const allowedScopes = (access: Access, surface: Surface) =>
  registeredScopes(surface)
    .filter((r) => access === 'read' || !r.readOnly)
    .map((r) => r.scope);

/** The scopes that would let a token make this REST request. */
export const scopesFor = (method: string, path: string) => allowedScopes(accessOf(method), { api: 'rest', path });

/** Allowed, or refused with every scope registered for the surface (GitLab names them all: `"scope":"read_user api read_api"`). */
export type ScopeDecision = { allowed: true } | { allowed: false; registered: string[] };

/**
 * The one scope check, for REST and GraphQL: whether the actor's token holds a scope good for `access` on `surface`.
 * Sessions and anonymous callers carry no token (the policy alone decides for them). A REST sudo request is checked
 * for the `sudo` scope only (in applySudo); GraphQL has no sudo of its own, so its token's scopes still count.
 */
export function scopeDecision(actor: Actor, access: Access, surface: Surface): ScopeDecision {
  if (!actor.via || actor.via === 'session' || (surface.api === 'rest' && actor.sudoFrom)) return { allowed: true };
  const allowed = allowedScopes(access, surface);
  if (actor.scopes.some((s) => allowed.includes(s))) return { allowed: true };
  return { allowed: false, registered: registeredScopes(surface).map((r) => r.scope) };
}

/** REST's answer to a refused scope: 403 insufficient_scope. */
export function assertScopes(actor: Actor, method: string, path: string) {
  const decision = scopeDecision(actor, accessOf(method), { api: 'rest', path });
  if (!decision.allowed) throw insufficientScope(decision.registered);
}

// ---- Sudo ----

async function applySudo(ctx: RequestContext, actor: Actor, ref: string): Promise<Actor> {
  if (!actor.user) throw unauthorized();
  if (actor.via === 'session') throw forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo');
  if (!actor.user.admin) throw forbidden('Must be admin to use sudo');
  if (!actor.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const target = await findUserByRef(ctx.db, ref);
  if (!target) throw notFound(`User with ID or username '${ref}'`);
  return { ...actor, user: target, sudoFrom: actor.user };
}

/**
 * The actor of a token of one of `kinds` (tried in order), or null when it is none of them; revoked and expired ones
 * throw GitLab's invalid_token answers. Also the password of git's HTTP Basic (functions/repositories/transport).
 */
export async function tokenActor(ctx: RequestContext, token: string, kinds: Credential['kinds']): Promise<Actor | null> {
  const digest = await sha256Hex(token);
  for (const kind of kinds) {
    const found = await resolvers[kind](ctx, digest);
    if (found) return found;
  }
  return null;
}

/**
 * Resolves the caller of the REST or the GraphQL API. A credential that matches nothing is a 401 even on public
 * endpoints, as in GitLab.
 */
export async function resolveActor(c: Context<AppEnv>, ctx: RequestContext, api: Surface['api']): Promise<Actor> {
  const credential = findCredential(c);
  let actor = anonymous;
  if (credential) {
    const found = await tokenActor(ctx, credential.value, credential.kinds);
    if (!found?.user) throw unauthorized();
    assertActive(found.user);
    actor = found;
  } else if (getCookie(c, SESSION_COOKIE)) {
    const session = await sessionActor(c, ctx, api);
    if (session?.user) {
      assertActive(session.user);
      actor = session;
    }
  }
  // Using the API is activity (GitLab's Users::ActivityService), recorded once a day after the answer; the token
  // resolvers record it with their token's use, in one statement.
  if (actor.via === 'session' && actor.user && inactiveToday(actor.user)) {
    ctx.waitUntil(recordUserActivity(ctx.db, actor.user.id).catch(() => undefined));
  }
  const sudo = c.req.query('sudo') || c.req.header('sudo'); // GitLab: `params[:sudo] || env['HTTP_SUDO']`
  if (sudo) actor = await applySudo(ctx, actor, sudo);
  return actor;
}

/** The signed-in user, or 401. */
export function requireUser(ctx: RequestContext): UserRow {
  if (!ctx.actor.user) throw unauthorized();
  return ctx.actor.user;
}

/**
 * GitLab's `authenticate!` (and `authenticate_non_get!` on writes) as route middleware: 401 before the route's
 * parameters or its subject are looked at.
 */
export const authenticated: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireUser(c.var.ctx);
  await next();
};
