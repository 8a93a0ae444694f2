// A file's three-way content merge, as git's (xdiff's) merge of one path: lines changed on one side only are taken
// from it, the same change on both sides is taken once, and anything else is a conflict. node-diff3 (a maintained
// diff3 implementation; the `diff` package's merge works on patches, not on three texts) does the line work.
// Bytes are handled as "binary strings" (one char per byte) so that a file need not be UTF-8 to merge exactly.
import { diff3Merge } from 'node-diff3';

/** git's buffer_is_binary: a NUL byte in the first 8000 bytes. Binary files never merge by lines. */
export const isBinary = (data: Uint8Array) => data.subarray(0, 8000).includes(0);

/** The lines of `data`, each with its "\n" (the last one without when the file does not end in one). */
function lines(data: Uint8Array): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0x0a) {
      out.push(binaryString(data.subarray(start, i + 1)));
      start = i + 1;
    }
  }
  if (start < data.length) out.push(binaryString(data.subarray(start)));
  return out;
}

function binaryString(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/**
 * `ours` and `theirs` merged over `base` (an empty base for a path both sides added); null when they conflict or
 * when any side is binary and both changed it.
 */
export function mergeContent(base: Uint8Array, ours: Uint8Array, theirs: Uint8Array): Uint8Array | null {
  if (isBinary(base) || isBinary(ours) || isBinary(theirs)) return null;
  const regions = diff3Merge(lines(ours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const merged: string[] = [];
  for (const region of regions) {
    if (region.conflict) return null;
    merged.push(...region.ok!);
  }
  const text = merged.join('');
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
