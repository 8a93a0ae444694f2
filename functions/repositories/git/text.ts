// Text inside commit and tag headers. Git stores bytes there (an author name typed in Latin-1, a tag name with any
// byte above 0x7f) and we must write back exactly what we read, yet callers want strings. So bytes that are not
// valid UTF-8 become the lone surrogates U+DC80..U+DCFF (Python's "surrogateescape"), and encoding turns them back
// into those bytes: a string stands for any byte sequence, and valid UTF-8 reads as itself.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextEncoder();
const ESCAPE_BASE = 0xdc00;
// A low surrogate in the escape range that is not the second half of a pair (U+1F4A9 is \ud83d\udca9).
const ESCAPED = /(?<![\ud800-\udbff])([\udc80-\udcff])/;

/** The length of the well-formed UTF-8 sequence at `i` (no overlongs, no surrogates, at most U+10FFFF), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Bytes as text, each byte of an invalid sequence kept as an escape. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let out = '';
    let start = 0;
    let i = 0;
    while (i < bytes.length) {
      const len = sequenceLength(bytes, i);
      if (len > 0) {
        i += len;
        continue;
      }
      out += strictUtf8.decode(bytes.subarray(start, i)) + String.fromCharCode(ESCAPE_BASE + bytes[i]!);
      start = ++i;
    }
    return out + strictUtf8.decode(bytes.subarray(start));
  }
}

/** Text as UTF-8, escapes back to the bytes they stand for (the inverse of decodeText). */
export function encodeText(text: string): Uint8Array {
  if (!ESCAPED.test(text)) return utf8.encode(text);
  // split with a capture group puts each escape at an odd index, between the plain runs.
  return concatBytes(text.split(ESCAPED).map((part, i) => (i % 2 === 1 ? Uint8Array.of(part.charCodeAt(0) - ESCAPE_BASE) : utf8.encode(part))));
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
