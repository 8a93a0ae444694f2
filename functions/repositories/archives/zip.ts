// The zip flavour of `git archive` (git's archive-zip.c) on fflate's streaming Zip: regular files deflated (level 6,
// zlib's default, as git), empty files, directories and symlinks stored; Unix modes for symlinks and executables,
// the MS-DOS directory bit for directories and submodules; every entry dated with the commit's time (DOS time in
// UTC, the zone a Gitaly server runs in, plus the extended-timestamp field git adds); the commit id as the archive's
// comment. Each call returns the bytes it produced, so the caller streams them as they come.
import { Zip, ZipDeflate, ZipPassThrough, type ZipInputFile } from 'fflate';
import type { ArchiveMode } from './modes.ts';

const utf8 = new TextDecoder();
const ascii = new TextEncoder();

/** The extended-timestamp extra field (0x5455): flags "mtime present", then the mtime as 32-bit Unix seconds. */
function extendedTimestamp(time: number): Uint8Array {
  const field = new Uint8Array(5);
  field[0] = 1;
  new DataView(field.buffer).setUint32(1, Math.min(Math.max(time, 0), 0xffffffff), true);
  return field;
}

/**
 * fflate writes an entry's DOS date from the Date's local fields: a Date whose local fields are the commit time's UTC
 * ones gives UTC whatever the process's zone. DOS dates start in 1980; an older commit gets the first one.
 */
function dosDate(time: number): Date {
  const d = new Date(Math.max(time, 315_532_800) * 1000);
  return new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

export class ZipArchiveWriter {
  private readonly zip: Zip;
  private out: Uint8Array[] = [];
  private current: (ZipInputFile & { push(chunk: Uint8Array, final?: boolean): void }) | null = null;
  private failure: Error | null = null;
  private readonly attributes: { mtime: Date; extra: Record<number, Uint8Array> };

  constructor(
    private readonly commitOid: string,
    time: number,
  ) {
    this.attributes = { mtime: dosDate(time), extra: { 0x5455: extendedTimestamp(time) } };
    this.zip = new Zip((err, chunk, final) => {
      if (err) this.failure = err;
      else this.out.push(final ? this.withComment(chunk) : chunk);
    });
  }

  /** git writes the commit id as the archive's comment: the end record's last field and its length. */
  private withComment(end: Uint8Array): Uint8Array {
    const comment = ascii.encode(this.commitOid);
    const out = new Uint8Array(end.length + comment.length);
    out.set(end);
    new DataView(out.buffer).setUint16(end.length - 2, comment.length, true);
    out.set(comment, end.length);
    return out;
  }

  private take(): Uint8Array[] {
    if (this.failure) throw this.failure;
    const out = this.out;
    this.out = [];
    return out;
  }

  begin(): Uint8Array[] {
    return [];
  }

  /**
   * Starts an entry. A directory or a symlink (its target as `linkTarget`) is complete at once; a regular file takes
   * its body through write(), ending with `final`.
   */
  open(e: { path: Uint8Array; mode: ArchiveMode; size: number; linkTarget?: Uint8Array }): Uint8Array[] {
    const name = utf8.decode(e.path);
    const deflate = e.mode.kind === 'file' && e.size > 0;
    const file = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    Object.assign(file, this.attributes, { os: e.mode.zipOs, attrs: e.mode.zipAttrs });
    this.zip.add(file);
    if (e.mode.kind === 'file') this.current = file;
    else file.push(e.mode.kind === 'symlink' ? (e.linkTarget ?? new Uint8Array()) : new Uint8Array(), true);
    return this.take();
  }

  write(chunk: Uint8Array, final: boolean): Uint8Array[] {
    if (!this.current) throw new Error('no zip entry is open');
    this.current.push(chunk, final);
    if (final) this.current = null;
    return this.take();
  }

  end(): Uint8Array[] {
    this.zip.end();
    return this.take();
  }
}
