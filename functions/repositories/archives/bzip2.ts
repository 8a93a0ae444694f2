// A bzip2 compressor (the format of bzip2 1.0, block size 900k, as `bzip2 -c` writes for GitLab's tar.bz2), written
// here because npm has no acceptable one: compressjs is GPL and unmaintained, the others decompress only or are
// emscripten builds that compile WebAssembly at run time (which Workers refuse). The stages are the format's own:
// run-length encoding of 4+ equal bytes, the Burrows-Wheeler transform (rotations sorted by prefix doubling,
// O(n log n) whatever the data), move-to-front with bzip2's zero-run symbols, and 2-6 Huffman tables chosen per 50
// symbols. Not byte-identical to the reference encoder (nor need it be: any bunzip2 reads it); bounded memory: one
// block at a time.

const BLOCK_MAX = 900_000 - 19;
const GROUP_SIZE = 50;
const MAX_CODE_LENGTH = 17;

/** bzip2's CRC-32 (MSB first, polynomial 0x04c11db7), its table built on first use. */
let crcTable: Uint32Array | undefined;
function crcTableOf(): Uint32Array {
  if (crcTable) return crcTable;
  crcTable = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    crcTable[i] = c >>> 0;
  }
  return crcTable;
}

/** Bits, most significant first, packed into bytes; whole bytes are taken as they fill. */
class BitWriter {
  private buf = new Uint8Array(1 << 16);
  private length = 0;
  private acc = 0;
  private bits = 0;

  write(count: number, value: number) {
    // At most 24 bits a call keeps `acc` within 32 bits.
    for (let left = count; left > 0;) {
      const n = Math.min(left, 16);
      left -= n;
      this.acc = ((this.acc << n) | ((value >>> left) & ((1 << n) - 1))) >>> 0;
      this.bits += n;
      while (this.bits >= 8) {
        this.bits -= 8;
        this.byte((this.acc >>> this.bits) & 0xff);
      }
      this.acc &= (1 << this.bits) - 1;
    }
  }

  private byte(b: number) {
    if (this.length === this.buf.length) {
      const grown = new Uint8Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[this.length++] = b;
  }

  /** The whole bytes written since the last take; with `end`, the last partial byte too (zero-padded). */
  take(end = false): Uint8Array {
    if (end && this.bits) this.write(8 - this.bits, 0);
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** The block's rotations in sorted order (cyclic prefix doubling with counting sorts). */
function sortRotations(block: Uint8Array, n: number): Int32Array {
  const sa = new Int32Array(n);
  const rank = new Int32Array(n);
  const next = new Int32Array(n);
  const tmp = new Int32Array(n);
  const count = new Int32Array(Math.max(256, n) + 1);
  for (let i = 0; i < n; i++) count[block[i]!]!++;
  for (let i = 1; i < 256; i++) count[i]! += count[i - 1]!;
  for (let i = n - 1; i >= 0; i--) sa[--count[block[i]!]!] = i;
  let classes = 1;
  rank[sa[0]!] = 0;
  for (let i = 1; i < n; i++) {
    if (block[sa[i]!] !== block[sa[i - 1]!]) classes++;
    rank[sa[i]!] = classes - 1;
  }
  for (let k = 1; k < n && classes < n; k <<= 1) {
    // By the second half first (the order of sa shifted back by k), then a stable counting sort by the first half.
    for (let i = 0; i < n; i++) tmp[i] = sa[i]! - k < 0 ? sa[i]! - k + n : sa[i]! - k;
    count.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) count[rank[tmp[i]!]!]!++;
    for (let i = 1; i < classes; i++) count[i]! += count[i - 1]!;
    for (let i = n - 1; i >= 0; i--) sa[--count[rank[tmp[i]!]!]!] = tmp[i]!;
    next[sa[0]!] = 0;
    classes = 1;
    for (let i = 1; i < n; i++) {
      const a = sa[i]!;
      const b = sa[i - 1]!;
      const a2 = a + k >= n ? a + k - n : a + k;
      const b2 = b + k >= n ? b + k - n : b + k;
      if (rank[a] !== rank[b] || rank[a2] !== rank[b2]) classes++;
      next[a] = classes - 1;
    }
    rank.set(next);
  }
  return sa;
}

/** Huffman code lengths of at most `max` bits for `freq` (every symbol gets one; flattened until they fit). */
function codeLengths(freq: Int32Array, alphaSize: number, max: number): Uint8Array {
  const lengths = new Uint8Array(alphaSize);
  const weight = new Float64Array(alphaSize * 2);
  const parent = new Int32Array(alphaSize * 2);
  const heap = new Int32Array(alphaSize);
  for (let i = 0; i < alphaSize; i++) weight[i] = Math.max(freq[i]!, 1);
  for (;;) {
    // A binary min-heap of node ids by weight; merging the two lightest makes the next inner node.
    let size = 0;
    const push = (node: number) => {
      let i = size++;
      while (i > 0 && weight[heap[(i - 1) >> 1]!]! > weight[node]!) {
        heap[i] = heap[(i - 1) >> 1]!;
        i = (i - 1) >> 1;
      }
      heap[i] = node;
    };
    const pop = () => {
      const top = heap[0]!;
      const last = heap[--size]!;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && weight[heap[child + 1]!]! < weight[heap[child]!]!) child++;
        if (weight[heap[child]!]! >= weight[last]!) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
      return top;
    };
    for (let i = 0; i < alphaSize; i++) push(i);
    let next = alphaSize;
    while (size > 1) {
      const a = pop();
      const b = pop();
      weight[next] = weight[a]! + weight[b]!;
      parent[a] = next;
      parent[b] = next;
      push(next++);
    }
    const root = next - 1;
    let fits = true;
    for (let i = 0; i < alphaSize; i++) {
      let depth = 0;
      for (let n = i; n !== root; n = parent[n]!) depth++;
      lengths[i] = depth;
      if (depth > max) fits = false;
    }
    if (fits) return lengths;
    for (let i = 0; i < alphaSize; i++) weight[i] = 1 + Math.floor(weight[i]! / 2);
  }
}

/** Canonical codes for the lengths (bzip2's hbAssignCodes). */
function assignCodes(lengths: Uint8Array): Int32Array {
  const codes = new Int32Array(lengths.length);
  let code = 0;
  for (let len = 1; len <= 20; len++) {
    for (let i = 0; i < lengths.length; i++) if (lengths[i] === len) codes[i] = code++;
    code <<= 1;
  }
  return codes;
}

/** One compressed block: the transform of `block[0..n)` (already run-length encoded) and its CRC. */
function writeBlock(out: BitWriter, block: Uint8Array, n: number, crc: number) {
  const sa = sortRotations(block, n);
  let origPtr = 0;
  const inUse = new Uint8Array(256);
  for (let i = 0; i < n; i++) inUse[block[i]!] = 1;
  const seq = new Uint8Array(256);
  let nInUse = 0;
  for (let i = 0; i < 256; i++) if (inUse[i]) seq[i] = nInUse++;

  // Move-to-front of the last column, zero runs as RUNA/RUNB (bijective base 2), then end of block.
  const alphaSize = nInUse + 2;
  const eob = nInUse + 1;
  const mtf = new Uint16Array(n + 1);
  const freq = new Int32Array(alphaSize);
  const order = new Uint8Array(nInUse);
  for (let i = 0; i < nInUse; i++) order[i] = i;
  let count = 0;
  let zeros = 0;
  const flushZeros = () => {
    if (!zeros) return;
    let z = zeros - 1;
    for (;;) {
      const sym = z & 1;
      mtf[count++] = sym;
      freq[sym]!++;
      if (z < 2) break;
      z = (z - 2) >> 1;
    }
    zeros = 0;
  };
  for (let i = 0; i < n; i++) {
    const start = sa[i]!;
    if (start === 0) origPtr = i;
    const c = seq[block[start === 0 ? n - 1 : start - 1]!]!;
    let j = 0;
    while (order[j] !== c) j++;
    if (j === 0) {
      zeros++;
      continue;
    }
    flushZeros();
    order.copyWithin(1, 0, j);
    order[0] = c;
    mtf[count++] = j + 1;
    freq[j + 1]!++;
  }
  flushZeros();
  mtf[count++] = eob;
  freq[eob]!++;

  // Tables: initial ones split the alphabet by frequency, then four rounds of choosing per group and refitting.
  const nGroups = count < 200 ? 2 : count < 600 ? 3 : count < 1200 ? 4 : count < 2400 ? 5 : 6;
  const nSelectors = Math.ceil(count / GROUP_SIZE);
  const tables: Uint8Array[] = Array.from({ length: nGroups }, () => new Uint8Array(alphaSize));
  let remaining = count;
  let lo = 0;
  for (let t = nGroups; t > 0; t--) {
    const target = remaining / t;
    let hi = lo - 1;
    let acc = 0;
    while (acc < target && hi < alphaSize - 1) acc += freq[++hi]!;
    if (hi > lo && t !== nGroups && t !== 1 && (nGroups - t) % 2 === 1) acc -= freq[hi--]!;
    for (let s = 0; s < alphaSize; s++) tables[nGroups - t]![s] = s >= lo && s <= hi ? 0 : 15;
    lo = hi + 1;
    remaining -= acc;
  }
  const selectors = new Uint8Array(nSelectors);
  for (let iter = 0; iter < 4; iter++) {
    const tableFreq = Array.from({ length: nGroups }, () => new Int32Array(alphaSize));
    for (let g = 0; g < nSelectors; g++) {
      const end = Math.min(count, (g + 1) * GROUP_SIZE);
      let best = 0;
      let bestCost = Infinity;
      for (let t = 0; t < nGroups; t++) {
        let cost = 0;
        for (let i = g * GROUP_SIZE; i < end; i++) cost += tables[t]![mtf[i]!]!;
        if (cost < bestCost) [best, bestCost] = [t, cost];
      }
      selectors[g] = best;
      for (let i = g * GROUP_SIZE; i < end; i++) tableFreq[best]![mtf[i]!]!++;
    }
    for (let t = 0; t < nGroups; t++) tables[t] = codeLengths(tableFreq[t]!, alphaSize, MAX_CODE_LENGTH);
  }
  const codes = tables.map(assignCodes);

  out.write(24, 0x314159);
  out.write(24, 0x265359);
  out.write(16, crc >>> 16);
  out.write(16, crc & 0xffff);
  out.write(1, 0); // not randomised
  out.write(24, origPtr);
  // The byte map: which groups of 16 bytes occur, then each such group's 16 bits.
  let groups = 0;
  for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) groups |= 0x8000 >> i;
  out.write(16, groups);
  for (let i = 0; i < 16; i++) {
    if (!(groups & (0x8000 >> i))) continue;
    let bits = 0;
    for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) bits |= 0x8000 >> j;
    out.write(16, bits);
  }
  out.write(3, nGroups);
  out.write(15, nSelectors);
  const selectorOrder = Array.from({ length: nGroups }, (_v, i) => i);
  for (const s of selectors) {
    const j = selectorOrder.indexOf(s);
    for (let k = 0; k < j; k++) out.write(1, 1);
    out.write(1, 0);
    selectorOrder.splice(j, 1);
    selectorOrder.unshift(s);
  }
  for (const lengths of tables) {
    let cur = lengths[0]!;
    out.write(5, cur);
    for (let s = 0; s < alphaSize; s++) {
      while (cur < lengths[s]!) {
        out.write(2, 2);
        cur++;
      }
      while (cur > lengths[s]!) {
        out.write(2, 3);
        cur--;
      }
      out.write(1, 0);
    }
  }
  for (let g = 0; g < nSelectors; g++) {
    const lengths = tables[selectors[g]!]!;
    const table = codes[selectors[g]!]!;
    const end = Math.min(count, (g + 1) * GROUP_SIZE);
    for (let i = g * GROUP_SIZE; i < end; i++) out.write(lengths[mtf[i]!]!, table[mtf[i]!]!);
  }
}

/** A streaming bzip2 compressor: push() bytes, finish() at the end; each returns the compressed bytes it has. */
export class Bzip2Encoder {
  private readonly out = new BitWriter();
  private readonly block = new Uint8Array(BLOCK_MAX + 8);
  private n = 0;
  private blockCrc = 0xffffffff;
  private combinedCrc = 0;
  private runByte = -1;
  private runLength = 0;
  private readonly crc = crcTableOf();

  constructor() {
    this.out.write(24, 0x425a68); // "BZh"
    this.out.write(8, 0x39); // '9': 900k blocks
  }

  /** Ends the current run: up to 4 copies, and the count of the rest after 4 (the CRC covers the input bytes). */
  private endRun() {
    const b = this.runByte;
    for (let i = 0; i < this.runLength; i++) this.blockCrc = ((this.blockCrc << 8) ^ this.crc[((this.blockCrc >>> 24) ^ b) & 0xff]!) >>> 0;
    for (let i = 0; i < Math.min(this.runLength, 4); i++) this.block[this.n++] = b;
    if (this.runLength >= 4) this.block[this.n++] = this.runLength - 4;
    this.runLength = 0;
    if (this.n >= BLOCK_MAX) this.endBlock();
  }

  private endBlock() {
    if (!this.n) return;
    const crc = ~this.blockCrc >>> 0;
    writeBlock(this.out, this.block, this.n, crc);
    this.combinedCrc = (((this.combinedCrc << 1) | (this.combinedCrc >>> 31)) ^ crc) >>> 0;
    this.n = 0;
    this.blockCrc = 0xffffffff;
  }

  push(data: Uint8Array): Uint8Array {
    for (let i = 0; i < data.length; i++) {
      const b = data[i]!;
      if (b === this.runByte && this.runLength < 255) {
        this.runLength++;
        continue;
      }
      if (this.runLength) this.endRun();
      this.runByte = b;
      this.runLength = 1;
    }
    return this.out.take();
  }

  finish(): Uint8Array {
    if (this.runLength) this.endRun();
    this.endBlock();
    this.out.write(24, 0x177245);
    this.out.write(24, 0x385090);
    this.out.write(16, this.combinedCrc >>> 16);
    this.out.write(16, this.combinedCrc & 0xffff);
    return this.out.take(true);
  }
}

/** The compressor as a TransformStream (tar.bz2 archives). */
export function bzip2Stream(): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new Bzip2Encoder();
  return new TransformStream({
    transform(chunk, controller) {
      const out = encoder.push(chunk);
      if (out.length) controller.enqueue(out);
    },
    flush(controller) {
      controller.enqueue(encoder.finish());
    },
  });
}
