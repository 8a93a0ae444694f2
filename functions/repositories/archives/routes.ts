// GET /projects/:id/repository/archive[.format] (GitLab 13.6 repositories.rb). The format is the path's extension
// (`archive.zip`; none: tar.gz): Workhorse picks the format from the URL's basename. The archive itself is built by
// archive.ts, imported on the first request that asks for one.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../../lib/context.ts';
import { projectRef } from '../../lib/ids.ts';
import { clientIp } from '../../lib/rate-limit.ts';
import { bool, params, path, plainString, schema } from '../../lib/validate.ts';
import { ARCHIVE_EXTENSIONS, archiveFormat } from './names.ts';

export const repositoryArchiveRoutes = new Hono<AppEnv>();

const ArchivePath = schema(() => z.object({ id: projectRef(), file: z.string() }));
const ArchiveInput = schema(() => z.object({ sha: z.optional(plainString()), path: z.optional(plainString()) }));

const extensions = ARCHIVE_EXTENSIONS.map((e) => e.replaceAll('.', '\\.')).join('|');

repositoryArchiveRoutes.get(`/projects/:id/repository/:file{archive(?:\\.(?:${extensions}))?}`, path(ArchivePath), params(ArchiveInput), async (c) => {
  const { id, file } = c.req.valid('param');
  const { sha, path: subdir } = c.req.valid('query');
  const { downloadArchive } = await import('./archive.ts');
  const format = archiveFormat(file.slice('archive.'.length) || undefined);
  const archive = await downloadArchive({ ctx: c.var.ctx, input: { project: id, sha, path: subdir, format, ip: clientIp(c) } });
  // Hono answers HEAD through this GET route and drops the body: no archive is built for it.
  if (c.req.method === 'HEAD') return c.body(null, 200, archive.headers);
  return c.body(await archive.open(), 200, archive.headers);
});

const SnapshotPath = schema(() => z.object({ id: projectRef() }));
const SnapshotInput = schema(() => z.object({ wiki: z.optional(bool()) }));

// GET /projects/:id/snapshot: the bare repository as a tar, for administrators (snapshot.ts, loaded on first use).
repositoryArchiveRoutes.get('/projects/:id/snapshot', path(SnapshotPath), params(SnapshotInput), async (c) => {
  const { downloadSnapshot, SNAPSHOT_HEADERS } = await import('./snapshot.ts');
  const stream = await downloadSnapshot({ ctx: c.var.ctx, input: { project: c.req.valid('param').id, wiki: c.req.valid('query').wiki === true } });
  return c.body(stream, 200, SNAPSHOT_HEADERS);
});
