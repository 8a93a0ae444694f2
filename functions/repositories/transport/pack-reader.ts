// A received pack read as it streams (gitformat-pack; git's index-pack): the header, each entry's type-and-size
// header, a REF_DELTA's base id or an OFS_DELTA's base offset, and its zlib stream, inflated with node:zlib (workerd
// and Node alike) because only an inflater that reports how much input it consumed finds where the next entry
// starts (DecompressionStream refuses trailing bytes: whatwg/compression#39). An entry whose stream has not fully
// arrived is retried once twice as many bytes are buffered, so a large entry costs a few inflates, not one per
// piece of the body. The SHA-1 of every byte before the trailer is checked against it. Deltas are resolved by the
// caller (unpack.ts), which has the repository's objects.
import { inflateSync } from 'node:zlib';
import { bytesToOid } from '../git/oid.ts';
import { Sha1 } from '../git/sha1.ts';
import type { ByteStream } from './byte-stream.ts';

export const OBJ_COMMIT = 1;
export const OBJ_TREE = 2;
export const OBJ_BLOB = 3;
export const OBJ_TAG = 4;
export const OBJ_OFS_DELTA = 6;
export const OBJ_REF_DELTA = 7;

export interface PackEntry {
  /** Where the entry starts in the pack (an OFS_DELTA names its base by this). */
  offset: number;
  type: number;
  /** The inflated data: the object's body, or the delta. */
  data: Uint8Array;
  baseOffset?: number;
  baseOid?: string;
}

/**
 * A pack git would refuse. `status` is what receive-pack's report says after `unpack ` (git's wording);
 * `detail` is index-pack's own message, which git shows as `remote: fatal: ...`.
 */
export class PackError extends Error {
  constructor(
    readonly status: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const abnormal = (detail: string) => new PackError('index-pack abnormal exit', detail);

/** git's receive.maxInputSize refusal: the pack is larger than the server takes. */
const tooLarge = (limit: number) => abnormal(`pack exceeds maximum allowed size (${limit})`);

/**
 * Reads the pack that follows in `input` to its trailer; every entry's data inflated, deltas not yet applied. A pack
 * over `maxPackSize` bytes, or an entry over `maxObjectSize` inflated, is refused as soon as it shows.
 */
export async function readPack(input: ByteStream, maxObjectSize: number, maxPackSize: number): Promise<PackEntry[]> {
  const hash = new Sha1();
  let offset = 0;
  const take = (n: number) => {
    const bytes = input.take(n);
    hash.update(bytes);
    offset += n;
    if (offset > maxPackSize) throw tooLarge(maxPackSize);
    return bytes;
  };
  const need = async (n: number) => {
    if (!(await input.fill(n))) throw abnormal('early EOF');
  };

  if (!(await input.fill(12))) throw new PackError('eof before pack header was fully read', 'eof before pack header was fully read');
  const header = take(12);
  if (header[0] !== 0x50 || header[1] !== 0x41 || header[2] !== 0x43 || header[3] !== 0x4b) {
    throw new PackError('protocol error (pack signature mismatch detected)', 'protocol error (pack signature mismatch detected)');
  }
  const view = new DataView(header.buffer, header.byteOffset, 12);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new PackError('protocol error (pack version unsupported)', `protocol error (pack version ${version} unsupported)`);
  const count = view.getUint32(8);

  const entries: PackEntry[] = [];
  for (let i = 0; i < count; i++) {
    const start = offset;
    // The type-and-size header: at most 10 bytes for any size below 2^64.
    await need(1);
    let byte = take(1)[0]!;
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let shift = 16;
    while (byte & 0x80) {
      await need(1);
      byte = take(1)[0]!;
      size += (byte & 0x7f) * shift;
      shift *= 128;
      if (shift > 2 ** 56) throw abnormal('bad object header');
    }
    if (type === 0 || type === 5) throw abnormal(`unknown object type ${type}`);
    if (size > maxObjectSize) throw abnormal(`object of ${size} bytes exceeds the maximum object size`);
    const entry: PackEntry = { offset: start, type, data: new Uint8Array() };
    if (type === OBJ_REF_DELTA) {
      await need(20);
      entry.baseOid = bytesToOid(take(20));
    } else if (type === OBJ_OFS_DELTA) {
      await need(1);
      byte = take(1)[0]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        await need(1);
        byte = take(1)[0]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      if (back <= 0 || back > start) throw abnormal('delta base offset is out of bound');
      entry.baseOffset = start - back;
    }
    entry.data = await inflateEntry(input, size, take, () => {
      if (offset + input.available > maxPackSize + 20) throw tooLarge(maxPackSize);
    });
    entries.push(entry);
  }

  if (!(await input.fill(20))) throw abnormal('early EOF');
  const trailer = input.take(20);
  const expected = hash.digest();
  if (!trailer.every((b, i) => b === expected[i])) throw abnormal('pack is corrupted (SHA1 mismatch)');
  if (input.available || (await input.more())) throw abnormal('pack has junk at the end');
  return entries;
}

/** One entry's zlib stream, inflated to exactly `size` bytes; the stream's bytes are consumed through `take`. */
async function inflateEntry(input: ByteStream, size: number, take: (n: number) => Uint8Array, checkSize: () => void): Promise<Uint8Array> {
  let wanted = Math.min(Math.ceil(size * 1.01) + 64, 1 << 20);
  for (;;) {
    await input.fill(wanted);
    if (!input.available) throw abnormal('early EOF');
    let result: { buffer: Uint8Array; engine: { bytesWritten: number } };
    try {
      // maxOutputLength: an entry that inflates past its declared size fails here, before it fills memory.
      result = inflateSync(input.view(), { info: true, maxOutputLength: Math.max(size, 1) }) as unknown as typeof result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!/unexpected end of file/.test(message)) throw abnormal(`inflate returned an error: ${message}`);
      // The stream has not fully arrived: read on, at least doubling what is buffered.
      if (input.ended) throw abnormal('early EOF');
      checkSize();
      wanted = Math.max(wanted, input.available * 2);
      continue;
    }
    if (result.buffer.length !== size) throw abnormal('inflate returned a size other than the header says');
    take(result.engine.bytesWritten);
    return new Uint8Array(result.buffer.buffer, result.buffer.byteOffset, result.buffer.length);
  }
}
