// git's delta format (gitformat-pack "Deltified representation", patch-delta.c): the base's size and the result's
// size as little-endian 7-bit varints, then instructions until the end: `1xxxxxxx` copies a run of the base (bits 0-3
// say which offset bytes follow, bits 4-6 which size bytes; a size of 0 means 0x10000), `0xxxxxxx` inserts the next
// x bytes of the delta, and 0 is reserved. Every bound patch-delta.c checks is checked, with its words.

/** A delta that does not apply to its base (git's messages: "delta replay has gone wild", ...). */
export class DeltaError extends Error {}

function varint(delta: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 1;
  for (;;) {
    if (at >= delta.length) throw new DeltaError('delta data truncated');
    const byte = delta[at++]!;
    value += (byte & 0x7f) * shift;
    shift *= 128;
    if (!(byte & 0x80)) return [value, at];
  }
}

/** The object `delta` makes of `base`. */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  if (delta.length < 4) throw new DeltaError('delta data too small');
  let [baseSize, at] = varint(delta, 0);
  if (baseSize !== base.length) throw new DeltaError('delta base size mismatch');
  let size: number;
  [size, at] = varint(delta, at);
  const out = new Uint8Array(size);
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += (delta[at++] ?? 0) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) length += (delta[at++] ?? 0) * 2 ** (8 * bit);
      if (at > delta.length) throw new DeltaError('delta data truncated');
      if (length === 0) length = 0x10000;
      if (offset + length > base.length || length > size - written) throw new DeltaError('delta replay has gone wild');
      out.set(base.subarray(offset, offset + length), written);
      written += length;
    } else if (op) {
      if (at + op > delta.length || op > size - written) throw new DeltaError('delta replay has gone wild');
      out.set(delta.subarray(at, at + op), written);
      at += op;
      written += op;
    } else throw new DeltaError('unexpected delta opcode 0');
  }
  if (written !== size) throw new DeltaError('delta replay has gone wild');
  return out;
}

/** The bytes a block of the base is indexed by (git's diff-delta.c uses 16 too). */
const BLOCK = 16;
/** The longest copy one instruction encodes here (3 size bytes allow 0xffffff; 0x10000 keeps every copy one shape). */
const MAX_COPY = 0x10000;
/** The longest insert: 7 bits. */
const MAX_INSERT = 0x7f;

function pushVarint(out: number[], value: number) {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

/** A hash of the BLOCK bytes at `at` (FNV-1a): base blocks are found by it, then compared byte by byte. */
function blockHash(bytes: Uint8Array, at: number): number {
  let h = 0x811c9dc5;
  for (let i = at; i < at + BLOCK; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * A delta that makes `target` of `base` (applyDelta's format), or null when it would not save half of the target:
 * git's diff-delta idea without its rolling hash. The base is indexed by its aligned BLOCK-byte blocks; the target is
 * scanned byte by byte, and a block found in the base is extended forward (and backward into the pending insert)
 * into one copy. Two versions of a tree (entries sorted by name, one id changed) become a copy, a 20-byte insert
 * and a copy; an edited file the same. Linear in both sizes.
 */
export function createDelta(base: Uint8Array, target: Uint8Array): Uint8Array | null {
  if (base.length < BLOCK || target.length < BLOCK) return null;
  const limit = target.length >> 1;
  const index = new Map<number, number>();
  for (let at = base.length - BLOCK - ((base.length - BLOCK) % BLOCK); at >= 0; at -= BLOCK) index.set(blockHash(base, at), at);
  const out: number[] = [];
  pushVarint(out, base.length);
  pushVarint(out, target.length);
  let pending = 0; // where the bytes not yet copied start
  const insert = (end: number) => {
    for (let at = pending; at < end; at += MAX_INSERT) {
      const n = Math.min(MAX_INSERT, end - at);
      out.push(n);
      for (let i = at; i < at + n; i++) out.push(target[i]!);
    }
  };
  const copy = (offset: number, length: number) => {
    for (let done = 0; done < length; done += MAX_COPY) {
      const o = offset + done;
      const n = Math.min(MAX_COPY, length - done);
      const ops = [o & 0xff, (o >>> 8) & 0xff, (o >>> 16) & 0xff, (o >>> 24) & 0xff, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
      let op = 0x80;
      const args: number[] = [];
      ops.forEach((byte, bit) => {
        if (byte) {
          op |= 1 << bit;
          args.push(byte);
        }
      });
      out.push(op, ...args);
    }
  };
  let t = 0;
  while (t + BLOCK <= target.length) {
    const found = index.get(blockHash(target, t));
    if (found === undefined || !sameBlock(base, found, target, t)) {
      // The bytes to insert so far already cost more than the target is worth: no delta (random data ends here early).
      if (++t - pending + out.length > limit) return null;
      continue;
    }
    let b = found;
    let start = t;
    while (start > pending && b > 0 && base[b - 1] === target[start - 1]) {
      start--;
      b--;
    }
    let end = t + BLOCK;
    let bEnd = found + BLOCK;
    while (end < target.length && bEnd < base.length && base[bEnd] === target[end]) {
      end++;
      bEnd++;
    }
    insert(start);
    copy(b, end - start);
    pending = t = end;
    if (out.length > limit) return null;
  }
  insert(target.length);
  return out.length > limit ? null : Uint8Array.from(out);
}

function sameBlock(base: Uint8Array, b: number, target: Uint8Array, t: number): boolean {
  for (let i = 0; i < BLOCK; i++) if (base[b + i] !== target[t + i]) return false;
  return true;
}
