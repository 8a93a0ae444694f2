// OAuth application verbs, shared by the admin REST API and the applications / authorized applications pages.
// Client secrets are 32 random bytes shown once as 64 hex characters; only their SHA-256 digest is stored.
import * as q from '../../db/queries/applications.ts';
import { revokeAuthorization } from '../oauth/statements.ts';
import type { OAuthApplicationRow } from '../../db/schema/index.ts';
import type { RequestContext } from '../lib/context.ts';
import { sha256Hex, toHex } from '../lib/crypto.ts';
import { notFound, validationFailed } from '../lib/errors.ts';
import { isOAuthScope, parseScopes } from '../oauth/scopes.ts';
import { requireAdmin } from '../users/service.ts';
import { parseRedirectUris } from './redirect-uri.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const randomHex = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

export interface NewApplication {
  name: string;
  redirectUri: string;
  scopes: string | string[];
  confidential: boolean;
}

/** Doorkeeper's model validation messages, per field, or null when the application is valid. */
export function applicationErrors(input: NewApplication): { errors: Record<string, string[]> | null; redirectUris: string[]; scopes: string[] } {
  const errors: Record<string, string[]> = {};
  if (input.name.trim() === '') errors.name = ["can't be blank"];
  const uris = parseRedirectUris(input.redirectUri);
  if (!uris.ok) errors.redirect_uri = uris.errors;
  const scopes = Array.isArray(input.scopes) ? [...new Set(input.scopes)] : parseScopes(input.scopes);
  if (!scopes.length) errors.scopes = ["can't be blank"];
  else if (!scopes.every(isOAuthScope)) errors.scopes = ["doesn't match those configured on the server."];
  return { errors: Object.keys(errors).length ? errors : null, redirectUris: uris.ok ? uris.uris : [], scopes };
}

/** Creates an application (owned by `ownerId`, or ownerless for the admin API). Throws 400 with the field messages. */
export async function registerApplication(ctx: RequestContext, input: NewApplication, ownerId: number | null) {
  const checked = applicationErrors(input);
  if (checked.errors) throw validationFailed(checked.errors);
  const secret = randomHex();
  const row = await q.insertApplication(ctx.db, {
    uid: randomHex(),
    secretDigest: await sha256Hex(secret),
    name: input.name.trim(),
    redirectUris: checked.redirectUris,
    scopes: checked.scopes,
    confidential: input.confidential,
    ownerId,
  });
  return { row, secret };
}

/** POST /applications (administrators). */
export async function createApplication({ ctx, input }: Verb<NewApplication>) {
  requireAdmin(ctx);
  return registerApplication(ctx, input, null);
}

/** GET /applications (administrators): every application. */
export function listAllApplications({ ctx }: Verb<unknown>) {
  requireAdmin(ctx);
  return {
    fetch: (limit: number, offset: number) => q.listApplications(ctx.db, {}, limit, offset),
    count: (limit: number) => q.countApplications(ctx.db, {}, limit),
  };
}

/** DELETE /applications/:id (administrators): its grants and tokens go with it. */
export async function deleteApplication({ ctx, input }: Verb<{ id: number | null }>) {
  requireAdmin(ctx);
  if (input.id === null || !(await q.deleteApplication(ctx.db, input.id))) throw notFound('Application');
}

/** The application an OAuth `client_id` names (the consent page and client authentication). */
export const findApplicationByClientId = (ctx: RequestContext, clientId: string): Promise<OAuthApplicationRow | undefined> =>
  q.findApplicationByUid(ctx.db, clientId);

// ---- The signed-in user's own applications (pages) ----

export const listOwnApplications = (ctx: RequestContext, userId: number) => q.listApplications(ctx.db, { ownerId: userId }, 1000, 0);

export async function findOwnApplication(ctx: RequestContext, userId: number, id: number): Promise<OAuthApplicationRow> {
  const app = await q.findApplicationById(ctx.db, id);
  if (!app || app.ownerId !== userId) throw notFound('Application');
  return app;
}

/** A new secret for one of the user's applications; the old one stops working at once. */
export async function renewSecret(ctx: RequestContext, userId: number, id: number) {
  const secret = randomHex();
  const row = await q.updateApplicationSecret(ctx.db, id, userId, await sha256Hex(secret));
  if (!row) throw notFound('Application');
  return { row, secret };
}

export async function deleteOwnApplication(ctx: RequestContext, userId: number, id: number) {
  if (!(await q.deleteApplication(ctx.db, id, userId))) throw notFound('Application');
}

// ---- Authorized applications ----

export const listAuthorizedApplications = (ctx: RequestContext, userId: number) => q.listAuthorizedApplications(ctx.db, userId);

/** Revokes the user's tokens and unexchanged codes for the application (in one transaction). */
export async function revokeAuthorizedApplication(ctx: RequestContext, userId: number, applicationId: number) {
  return ctx.transaction((tx) => revokeAuthorization(tx, applicationId, userId));
}
