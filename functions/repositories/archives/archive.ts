// GET repository/archive (GitLab 13.6 repositories.rb `archive`, Workhorse's SendArchive, Gitaly's GetArchive): the
// tree of a revision as `git archive` writes it (tar, tar.gz, tar.bz2, zip), streamed. `path` (one directory or file
// of the tree) is GitLab 14.4's parameter, taken here as 14.4 takes it; a 13.6 server would ignore it. Loaded lazily
// by routes.ts: the writers and fflate cost a cold start nothing until an archive is asked for.
import { archiveListing, readObjectSlice } from '../../../db/queries/repositories/archive.ts';
import { readObjects } from '../../../db/queries/repositories/reads.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { bzip2Stream } from './bzip2.ts';
import { archiveHeaders, archivePrefix, type ArchiveFormat } from './names.ts';
import { archiveStream, type BlobSource } from './stream.ts';
import { TarArchiveWriter } from './tar.ts';
import { ZipArchiveWriter } from './zip.ts';
import { projectFor } from '../service.ts';
import { throttleArchive } from './throttle.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { log } from '../../lib/log.ts';

type Verb<I> = { ctx: RequestContext; input: I };

/** tar.gz as `git archive --format=tar | gzip -c -n` (the platform's gzip), tar.bz2 through bzip2. */
function compressed(tar: ReadableStream<Uint8Array>, format: ArchiveFormat): ReadableStream<Uint8Array> {
  // The DOM typings give CompressionStream a writable of BufferSource, which Uint8Array is: only the types differ.
  if (format === 'tar.gz') return tar.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  if (format === 'tar.bz2') return tar.pipeThrough(bzip2Stream());
  return tar;
}

/**
 * Archives whose blobs add up to more than this are streamed only: the copy for the cache is read while the client
 * reads its own, and the slower reader's side waits in memory, so only what a request may hold is kept.
 */
const CACHEABLE_BYTES = 16 * 1024 * 1024;
/** A commit's archive never changes: kept a day (the cache evicts it sooner when it needs the room). */
const CACHE_SECONDS = 86_400;

/**
 * The cache key of an archive: every input of its bytes (the commit, which fixes the tree and the times; the top
 * directory's name, which holds the project's path and the ref as asked; the path; the format) and nothing else, so
 * equal keys are equal archives whichever project or ref asked. Only looked up after the policy check and the
 * revision's resolution in the asking project.
 */
async function cacheKey(ctx: RequestContext, a: { commitOid: string; prefix: string; path: string | undefined; format: ArchiveFormat }) {
  const digest = await sha256Hex(JSON.stringify(['archive-v1', a.commitOid, a.prefix, a.path ?? null, a.format]));
  return new Request(`${ctx.config.publicUrl}/-/archive-cache/${a.commitOid}/${digest}.${a.format}`);
}

/**
 * The archive of the commit `sha` names (any revision; the default branch when left out), restricted to `path` when
 * given. `download_code` on the project first, then the archive throttle (throttle.ts, by the caller's `ip`);
 * then 404 `File Not Found` when the revision names no commit (an empty repository too) or, where Gitaly would refuse
 * the request ("path doesn't exist"), when the path is not in its tree. Built once and kept in the platform's cache
 * (ctx.cache): the same archive asked again is read back, not compressed again.
 */
export async function downloadArchive({
  ctx,
  input,
}: Verb<{ project: Ref | null; sha: string | undefined; path: string | undefined; format: ArchiveFormat; ip: string }>) {
  const found = await projectFor(ctx, input.project, 'project:download_code');
  const projectId = found.context.projectId;
  await throttleArchive(ctx, projectId, input.ip);
  const listing = await archiveListing(ctx.db, { projectId, rev: input.sha ?? 'HEAD', path: input.path ?? '' });
  if (!listing || !listing.found) throw notFound('File');
  const prefix = archivePrefix({
    projectPath: found.project.project.path,
    ref: input.sha ?? listing.defaultBranch ?? '',
    commitOid: listing.commitOid,
    path: input.path,
  });
  const source: BlobSource = {
    read: async (oids) => new Map((await readObjects(ctx.db, projectId, oids)).map((o) => [o.oid, o.data])),
    slice: (oid, offset, length) => readObjectSlice(ctx.db, projectId, oid, offset, length),
  };
  const writer =
    input.format === 'zip' ? new ZipArchiveWriter(listing.commitOid, listing.committedAt) : new TarArchiveWriter(listing.commitOid, listing.committedAt);
  const plan = { prefix: new TextEncoder().encode(prefix), treeOid: listing.treeOid, entries: listing.entries };
  const cache = ctx.cache;
  const cacheable = cache !== undefined && listing.entries.reduce((sum, e) => sum + (e.size ?? 0), 0) <= CACHEABLE_BYTES;
  return {
    headers: archiveHeaders(`${prefix}.${input.format}`, input.format),
    // Built on demand: a HEAD request answers the headers and must not start the reads (a compression stream pulls
    // from its source as soon as it is piped).
    open: async (): Promise<ReadableStream<Uint8Array>> => {
      const key = cacheable ? await cacheKey(ctx, { commitOid: listing.commitOid, prefix, path: input.path, format: input.format }) : undefined;
      // A cache that fails is a cache that missed: the archive is built as without one.
      const hit = key && (await cache!.match(key).catch(() => undefined));
      if (hit && hit.body) return hit.body;
      const built = compressed(archiveStream(plan, writer, source), input.format);
      if (!key) return built;
      const [out, kept] = built.tee();
      const entry = new Response(kept, { headers: { 'Cache-Control': `max-age=${CACHE_SECONDS}`, 'Content-Type': 'application/octet-stream' } });
      ctx.waitUntil(cache!.put(key, entry).catch((error: unknown) => log('warn', 'archive not cached', { error: String(error) })));
      return out;
    },
  };
}
