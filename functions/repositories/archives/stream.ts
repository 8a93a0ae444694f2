// The archive as a stream: the listing's entries in order, their bodies read in bounded batches as the reader pulls
// (at most BATCH_BYTES of blobs in memory, a larger blob in slices), written by the tar or zip writer, coalesced into
// chunks of about CHUNK_BYTES. Nothing is read before the first pull, and a cancelled download stops the reads.
import type { ArchiveEntryRow } from '../../../db/queries/repositories/archive.ts';
import { archiveMode, type ArchiveMode } from './modes.ts';

/** Blob bodies read together; a blob above LARGE_BLOB is read alone, SLICE_BYTES at a time. */
export const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_COUNT = 500;
export const LARGE_BLOB = 4 * 1024 * 1024;
const SLICE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

export interface BlobSource {
  /** The bodies of these blobs, by id (a missing one is absent). */
  read(oids: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** `length` bytes of a blob from `offset`. */
  slice(oid: string, offset: number, length: number): Promise<Uint8Array>;
}

export interface ArchiveWriter {
  begin(): Uint8Array[];
  open(e: { path: Uint8Array; oid: string; mode: ArchiveMode; size: number; linkTarget?: Uint8Array }): Uint8Array[];
  write(chunk: Uint8Array, final: boolean): Uint8Array[];
  end(): Uint8Array[];
}

export interface ArchivePlan {
  /** The top directory every entry goes under (git archive's --prefix, without its slash). */
  prefix: Uint8Array;
  /** The root tree: names the top directory's pax header when its path is too long. */
  treeOid: string;
  entries: readonly ArchiveEntryRow[];
}

const SLASH = 0x2f;

function join(prefix: Uint8Array, path: Uint8Array, directory: boolean): Uint8Array {
  const out = new Uint8Array(prefix.length + 1 + path.length + (directory && path.length ? 1 : 0));
  out.set(prefix);
  out[prefix.length] = SLASH;
  out.set(path, prefix.length + 1);
  if (directory && path.length) out[out.length - 1] = SLASH;
  return out;
}

const needsBody = (mode: ArchiveMode, e: ArchiveEntryRow) => mode.kind === 'symlink' || (mode.kind === 'file' && (e.size ?? 1) > 0);

function missing(e: ArchiveEntryRow): never {
  throw new Error(`blob ${e.oid} of an archive entry is not in the repository`);
}

/** The archive's bytes, in writer order, before coalescing. */
async function* records(plan: ArchivePlan, writer: ArchiveWriter, source: BlobSource): AsyncGenerator<Uint8Array> {
  yield* writer.begin();
  yield* writer.open({ path: join(plan.prefix, new Uint8Array(), true), oid: plan.treeOid, mode: archiveMode('40000'), size: 0 });
  const { entries } = plan;
  let i = 0;
  while (i < entries.length) {
    // The next batch: entries up to BATCH_BYTES of bodies, stopping before a large blob.
    const wanted = new Set<string>();
    let bytes = 0;
    let j = i;
    let large = false;
    for (; j < entries.length; j++) {
      const e = entries[j]!;
      const mode = archiveMode(e.mode);
      if (!needsBody(mode, e)) continue;
      const size = e.size ?? missing(e);
      if (mode.kind === 'file' && size > LARGE_BLOB) {
        large = true;
        break;
      }
      if (wanted.size && !wanted.has(e.oid) && (bytes + size > BATCH_BYTES || wanted.size >= BATCH_COUNT)) break;
      if (!wanted.has(e.oid)) bytes += size;
      wanted.add(e.oid);
    }
    const bodies = wanted.size ? await source.read([...wanted]) : new Map<string, Uint8Array>();
    for (; i < j; i++) {
      const e = entries[i]!;
      const mode = archiveMode(e.mode);
      const path = join(plan.prefix, e.path, mode.kind === 'directory');
      const body = needsBody(mode, e) ? (bodies.get(e.oid) ?? missing(e)) : new Uint8Array();
      if (mode.kind === 'symlink') yield* writer.open({ path, oid: e.oid, mode, size: 0, linkTarget: body });
      else yield* writer.open({ path, oid: e.oid, mode, size: body.length });
      if (mode.kind === 'file') yield* writer.write(body, true);
    }
    if (large) {
      // A large blob, alone: its header (the size is known), then its slices.
      const e = entries[i++]!;
      const size = e.size!;
      yield* writer.open({ path: join(plan.prefix, e.path, false), oid: e.oid, mode: archiveMode(e.mode), size });
      for (let at = 0; at < size; at += SLICE_BYTES) {
        const slice = await source.slice(e.oid, at, Math.min(SLICE_BYTES, size - at));
        yield* writer.write(slice, at + SLICE_BYTES >= size);
      }
    }
  }
  yield* writer.end();
}

/** Small records (a 512-byte header, a short file) gathered into chunks of about CHUNK_BYTES. */
async function* coalesced(parts: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let held: Uint8Array[] = [];
  let size = 0;
  const flush = () => {
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of held) {
      out.set(p, at);
      at += p.length;
    }
    held = [];
    size = 0;
    return out;
  };
  for await (const p of parts) {
    if (!p.length) continue;
    held.push(p);
    size += p.length;
    if (size >= CHUNK_BYTES) yield flush();
  }
  if (size) yield flush();
}

/** The archive as a ReadableStream: each pull produces the next chunk. */
export function archiveStream(plan: ArchivePlan, writer: ArchiveWriter, source: BlobSource): ReadableStream<Uint8Array> {
  const chunks = coalesced(records(plan, writer, source));
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
