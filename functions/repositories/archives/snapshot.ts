// GET /projects/:id/snapshot (GitLab 13.6 project_snapshots.rb, Gitaly's GetSnapshot): the repository as a bare git
// directory in an uncompressed tar, for administrators: HEAD, packed-refs with every ref, the refs directories, and
// every object the project may read as a loose object (zlib-deflated `<type> <size>\0<body>`), streamed a batch at a
// time so memory is bounded by the batch, not the repository. `git clone` of the unpacked directory works.
import { zlibSync } from 'fflate';
import { snapshotObjects } from '../../../db/queries/repositories/snapshot.ts';
import { listRefs } from '../../../db/queries/repositories/refs.ts';
import type { RequestContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import type { Ref } from '../../lib/ids.ts';
import { requireAdmin } from '../../users/service.ts';
import { findProject } from '../../projects/service.ts';
import type { ArchiveMode } from './modes.ts';
import { tarEntryHeader, tarPadding, tarTrailer } from './tar.ts';

type Verb<I> = { ctx: RequestContext; input: I };

const TYPE_NAMES = ['', 'commit', 'tree', 'blob', 'tag'] as const;
const BATCH_OBJECTS = 500;
const BATCH_BYTES = 8 * 1024 * 1024;
const FILE: ArchiveMode = { kind: 'file', tar: 0o100644, zipAttrs: 0, zipOs: 3 };
const DIRECTORY: ArchiveMode = { kind: 'directory', tar: 0o040755, zipAttrs: 0, zipOs: 3 };

/** Workhorse's headers for a git snapshot. */
export const SNAPSHOT_HEADERS = {
  'Content-Type': 'application/x-tar',
  'Content-Disposition': 'attachment; filename="snapshot.tar"',
  'Content-Transfer-Encoding': 'binary',
  'Cache-Control': 'private',
};

const text = new TextEncoder();

/**
 * The snapshot's stream. `authenticated_with_can_read_all_resources!` comes first (401 anonymous, 403 for
 * non-administrators, whatever the project), then the project (404). No wiki repository exists yet: `wiki=true`
 * is 404.
 */
export async function downloadSnapshot({ ctx, input }: Verb<{ project: Ref | null; wiki: boolean }>): Promise<ReadableStream<Uint8Array>> {
  requireAdmin(ctx);
  const view = await findProject(ctx, input.project);
  if (input.wiki) throw notFound('Wiki Repository');
  const projectId = view.project.id;
  const refs = await listRefs(ctx.db, projectId);
  const time = Math.floor(Date.now() / 1000);
  let written = 0;
  const entry = (path: string, body?: Uint8Array): Uint8Array[] => {
    const header = tarEntryHeader({ path: text.encode(path), oid: '', mode: body ? FILE : DIRECTORY, size: body?.length ?? 0, time });
    const parts = body ? [header, body, tarPadding(body.length)] : [header];
    for (const p of parts) written += p.length;
    return parts;
  };
  const head = `ref: refs/heads/${view.repository?.defaultBranch ?? 'main'}\n`;
  // No traits line: git peels annotated tags itself.
  const packed = refs.map((r) => `${r.oid} ${r.name}\n`).join('');
  let after: string | null = null;
  let done = false;
  const dirs = new Set<string>();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of [
        ...entry('HEAD', text.encode(head)),
        ...entry('packed-refs', text.encode(packed)),
        ...entry('refs/'),
        ...entry('refs/heads/'),
        ...entry('refs/tags/'),
        ...entry('objects/'),
      ])
        controller.enqueue(part);
    },
    async pull(controller) {
      if (done) return;
      const batch = await snapshotObjects(ctx.db, projectId, after, BATCH_OBJECTS, BATCH_BYTES);
      for (const o of batch) {
        const dir = `objects/${o.oid.slice(0, 2)}/`;
        if (!dirs.has(dir)) {
          dirs.add(dir);
          for (const part of entry(dir)) controller.enqueue(part);
        }
        const header = text.encode(`${TYPE_NAMES[o.type]} ${o.data.length}\0`);
        const loose = new Uint8Array(header.length + o.data.length);
        loose.set(header);
        loose.set(o.data, header.length);
        for (const part of entry(`${dir}${o.oid.slice(2)}`, zlibSync(loose))) controller.enqueue(part);
      }
      if (batch.length === 0) {
        done = true;
        controller.enqueue(tarTrailer(written));
        controller.close();
      } else after = batch[batch.length - 1]!.oid;
    },
  });
}
