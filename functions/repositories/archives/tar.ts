// The tar records `git archive --format=tar` writes (git's archive-tar.c), byte for byte: a pax global header with
// the commit id, then for each entry an optional pax extended header and a ustar header, the body padded to 512
// bytes, and a trailer that rounds the archive up to git's 10240-byte blocks. Pure: bytes in, bytes out.
import type { ArchiveMode } from './modes.ts';
import { concatBytes } from '../git/text.ts';

const RECORD = 512;
const BLOCK = RECORD * 20;
/** The largest values a ustar header holds in 11 octal digits; past them git writes a pax record instead. */
const USTAR_MAX = 0o77777777777;

const ascii = new TextEncoder();

function octal(header: Uint8Array, at: number, digits: number, value: number) {
  header.set(ascii.encode(value.toString(8).padStart(digits, '0')), at);
}

/** A ustar header (git's prepare_header): uid/gid 0, owner root, the checksum over the header with its field blank. */
function ustarHeader(a: { name: Uint8Array; prefix?: Uint8Array; linkname?: Uint8Array; mode: number; size: number; time: number; type: string }): Uint8Array {
  const h = new Uint8Array(RECORD);
  h.set(a.name.subarray(0, 100), 0);
  octal(h, 100, 7, a.mode & 0o7777);
  octal(h, 108, 7, 0);
  octal(h, 116, 7, 0);
  octal(h, 124, 11, a.size);
  octal(h, 136, 11, a.time);
  h[156] = a.type.charCodeAt(0);
  if (a.linkname) h.set(a.linkname.subarray(0, 100), 157);
  h.set(ascii.encode('ustar\0'), 257);
  h.set(ascii.encode('00'), 263);
  h.set(ascii.encode('root'), 265);
  h.set(ascii.encode('root'), 297);
  octal(h, 329, 7, 0);
  octal(h, 337, 7, 0);
  if (a.prefix) h.set(a.prefix.subarray(0, 155), 345);
  let sum = 8 * 0x20;
  for (let i = 0; i < RECORD; i++) if (i < 148 || i >= 156) sum += h[i]!;
  octal(h, 148, 7, sum);
  return h;
}

/** One pax record, `<length> <key>=<value>\n`, its length counting its own digits (strbuf_append_ext_header). */
function paxRecord(key: string, value: Uint8Array): Uint8Array {
  let len = 1 + 1 + key.length + 1 + value.length + 1;
  for (let tens = 1; Math.floor(len / 10) >= tens; tens *= 10) len++;
  const head = ascii.encode(`${len} ${key}=`);
  const out = new Uint8Array(len);
  out.set(head);
  out.set(value, head.length);
  out[len - 1] = 0x0a;
  return out;
}

/** Zeros that pad `size` bytes of body up to the next 512-byte record. */
export const tarPadding = (size: number) => new Uint8Array((RECORD - (size % RECORD)) % RECORD);

/** A header record and its padded body, as git writes both (write_blocked). */
function blocked(header: Uint8Array, body: Uint8Array): Uint8Array {
  return concatBytes([header, body, tarPadding(body.length)]);
}

/**
 * The archive's first record: a pax global header whose comment is the commit id (`git get-tar-commit-id` reads it),
 * plus the real mtime when it does not fit a ustar header. `time` is what every later header carries.
 */
export function tarGlobalHeader(commitOid: string, committedAt: number): { bytes: Uint8Array; time: number } {
  const records = [paxRecord('comment', ascii.encode(commitOid))];
  let time = committedAt;
  if (time > USTAR_MAX) {
    records.push(paxRecord('mtime', ascii.encode(String(time))));
    time = USTAR_MAX;
  }
  const body = concatBytes(records);
  const header = ustarHeader({ name: ascii.encode('pax_global_header'), mode: 0o100666, size: body.length, time, type: 'g' });
  return { bytes: blocked(header, body), time };
}

/** git's get_path_prefix: where to split a long path into ustar's prefix and name fields (at a slash). */
function pathPrefixLength(path: Uint8Array, max: number): number {
  let i = path.length;
  if (i > 1 && path[i - 1] === 0x2f) i--;
  if (i > max) i = max;
  do i--;
  while (i > 0 && path[i] !== 0x2f);
  return i;
}

export interface TarEntry {
  /** The entry's full path in the archive (the prefix included; a directory's ends with `/`). */
  path: Uint8Array;
  /** The object id: names the pax header of an entry whose path or link does not fit. */
  oid: string;
  mode: ArchiveMode;
  /** The body's size (regular files); a symlink's target goes in `linkTarget`. */
  size: number;
  linkTarget?: Uint8Array;
  time: number;
}

/**
 * The records before an entry's body (write_tar_entry): a pax extended header when the path, the link target or the
 * size does not fit ustar, then the ustar header. A regular file's body follows, then tarPadding(size).
 */
export function tarEntryHeader(e: TarEntry): Uint8Array {
  const ext: Uint8Array[] = [];
  let name = e.path;
  let prefix: Uint8Array | undefined;
  if (e.path.length > 100) {
    const plen = pathPrefixLength(e.path, 155);
    const rest = e.path.length - plen - 1;
    if (plen > 0 && rest <= 100) {
      prefix = e.path.subarray(0, plen);
      name = e.path.subarray(plen + 1);
    } else {
      name = ascii.encode(`${e.oid}.data`);
      ext.push(paxRecord('path', e.path));
    }
  }
  let linkname: Uint8Array | undefined;
  if (e.mode.kind === 'symlink' && e.linkTarget) {
    if (e.linkTarget.length > 100) {
      linkname = ascii.encode(`see ${e.oid}.paxheader`);
      ext.push(paxRecord('linkpath', e.linkTarget));
    } else linkname = e.linkTarget;
  }
  let size = e.mode.kind === 'file' ? e.size : 0;
  if (size > USTAR_MAX) {
    ext.push(paxRecord('size', ascii.encode(String(size))));
    size = 0;
  }
  const type = { file: '0', symlink: '2', directory: '5' }[e.mode.kind];
  const header = ustarHeader({ name, prefix, linkname, mode: e.mode.tar, size, time: e.time, type });
  if (!ext.length) return header;
  const body = concatBytes(ext);
  const extHeader = ustarHeader({ name: ascii.encode(`${e.oid}.paxheader`), mode: 0o100666, size: body.length, time: e.time, type: 'x' });
  return concatBytes([blocked(extHeader, body), header]);
}

/**
 * The end of the archive (write_trailer): zeros up to the end of the current 10240-byte block, and a whole block more
 * when fewer than two zero records would fit, so the archive ends with at least 1024 zero bytes.
 */
export function tarTrailer(written: number): Uint8Array {
  const tail = BLOCK - (written % BLOCK);
  return new Uint8Array(tail < 2 * RECORD ? tail + BLOCK : tail);
}

/** The tar stream's writer, with the zip writer's shape: records as the entries come, the trailer at the end. */
export class TarArchiveWriter {
  private written = 0;
  private size = 0;
  private readonly time: number;
  private readonly global: Uint8Array;

  constructor(commitOid: string, committedAt: number) {
    const g = tarGlobalHeader(commitOid, committedAt);
    this.time = g.time;
    this.global = g.bytes;
  }

  private count(parts: Uint8Array[]): Uint8Array[] {
    for (const p of parts) this.written += p.length;
    return parts;
  }

  begin(): Uint8Array[] {
    return this.count([this.global]);
  }

  open(e: Omit<TarEntry, 'time'>): Uint8Array[] {
    this.size = e.mode.kind === 'file' ? e.size : 0;
    return this.count([tarEntryHeader({ ...e, time: this.time })]);
  }

  write(chunk: Uint8Array, final: boolean): Uint8Array[] {
    return this.count(final ? [chunk, tarPadding(this.size)] : [chunk]);
  }

  end(): Uint8Array[] {
    return this.count([tarTrailer(this.written)]);
  }
}
