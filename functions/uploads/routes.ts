import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/context.ts';
import { assertScopes, resolveActor } from '../lib/auth.ts';
import { notFound } from '../lib/errors.ts';
import type { AvatarOwner } from './avatars.ts';
import { readAvatar } from './service.ts';
import { readProjectUpload } from './project-uploads.ts';

export const uploadRoutes = new Hono<AppEnv>();

/**
 * The caller as the REST API sees them (a session, or a token good for reads), so that API clients can fetch the
 * avatars of private groups and projects they may read, as a browser signed in to GitLab does.
 */
const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const { ctx } = c.var;
  ctx.actor = await resolveActor(c, ctx, 'rest');
  assertScopes(ctx.actor, c.req.method, c.req.path);
  await next();
});

/**
 * The stored bytes with their sniffed type. GitLab's caching (UploadsActions#show: `expires_in 0, must_revalidate,
 * private`): the URL outlives a replaced avatar, so clients revalidate every time, cheaply, with the ETag (the bytes'
 * SHA-256). Only raster images are ever stored; `nosniff` and a sandboxing CSP keep even a crafted one inert when
 * opened directly.
 */
uploadRoutes.get('/uploads/-/system/:kind{user|group|project}/avatar/:id{[0-9]+}/:filename', authenticate, async (c) => {
  const id = Number(c.req.param('id'));
  if (id > 2_147_483_647) throw notFound(); // no row has it
  const kind = c.req.param('kind') as AvatarOwner['kind'];
  const avatar = await readAvatar({ ctx: c.var.ctx, input: { kind, id, filename: c.req.param('filename') } });
  const etag = `"${avatar.checksum}"`;
  c.header('Cache-Control', 'max-age=0, private, must-revalidate');
  c.header('ETag', etag);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', "default-src 'none'; sandbox");
  if (
    c.req
      .header('if-none-match')
      ?.split(/\s*,\s*/)
      .some((t) => t === etag || t === `W/${etag}` || t === '*')
  )
    return c.body(null, 304);
  // The stored name is sanitized (word characters, `.`, `-`, `+`); the quoted form keeps ASCII only.
  const ascii = avatar.filename.replace(/[^\x20-\x7e]/g, '_');
  c.header('Content-Disposition', `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(avatar.filename)}`);
  c.header('Content-Type', avatar.contentType);
  c.header('Content-Length', String(avatar.size));
  return c.body(avatar.data);
});

/**
 * A project's Markdown attachment (`/<namespace>/<project>/uploads/<secret>/<filename>`), under the project's read
 * rule. Images whose bytes are what they claim are shown inline; anything else is a download. `nosniff` and a
 * sandboxing CSP keep even a crafted file inert when opened directly.
 */
uploadRoutes.get('/:project{.+}/uploads/:secret{[0-9a-f]{32}}/:filename', authenticate, async (c) => {
  const found = await readProjectUpload(c.var.ctx, { projectPath: c.req.param('project'), secret: c.req.param('secret'), filename: c.req.param('filename') });
  const ascii = found.upload.filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '_');
  c.header('Cache-Control', 'max-age=0, private, must-revalidate');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Content-Security-Policy', "default-src 'none'; sandbox");
  c.header(
    'Content-Disposition',
    `${found.inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(found.upload.filename)}`,
  );
  c.header('Content-Type', found.contentType);
  c.header('Content-Length', String(found.upload.size));
  return c.body(found.body);
});
