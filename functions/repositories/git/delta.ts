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
