// The search API's blob results (Gitlab::FileFinder, Gitlab::Search::FoundBlob), pure: the query's filters
// (Gitlab::Search::Query: `filename:`, `path:`, `extension:`, negated with a leading `-`), and a content match cut
// into git grep's chunks (Gitaly's SearchFilesByContent: two lines of context around each matching line,
// overlapping or touching groups joined, every line ending in a newline).
import { RE2JS } from 're2js';

export const CONTEXT_LINES = 2;
/** FileFinder's BATCH_SIZE: at most this many content chunks and this many path matches. */
export const BATCH_SIZE = 100;

type FilterName = 'filename' | 'path' | 'extension';
export interface BlobFilter {
  name: FilterName;
  value: string;
  negated: boolean;
}

export interface BlobQuery {
  /** What the files are searched for. */
  term: string;
  filters: BlobFilter[];
}

const FILTER = /^(-?)(filename|path|extension):(\S+)$/;

/** Gitlab::Search::Query: `name:value` words are filters, the rest (in order) is the term. */
export function parseBlobQuery(query: string): BlobQuery {
  const filters: BlobFilter[] = [];
  const term: string[] = [];
  for (const word of query.split(' ')) {
    const m = FILTER.exec(word);
    if (m) filters.push({ name: m[2] as FilterName, value: m[3]!, negated: m[1] === '-' });
    else term.push(word);
  }
  return { term: term.join(' ').trim(), filters };
}

/** Gitlab::Search::Query's regex_value: the value taken literally but for `*` (any run of characters). */
const regexValue = (value: string) =>
  value
    .split('*')
    .map((part) => RE2JS.quote(part))
    .join('.*');

/**
 * The filters' matchers (FileFinder), case-insensitive and unanchored at the start: `filename` and `extension` end the
 * path (`/value$/i`, `/\.value$/i`), `path` occurs anywhere in it. RE2 (linear time) for these user-given patterns.
 */
export function passesFilters(path: string, filters: readonly BlobFilter[]): boolean {
  return filters.every((f) => {
    const pattern = f.name === 'filename' ? `${regexValue(f.value)}$` : f.name === 'path' ? regexValue(f.value) : `\\.${regexValue(f.value)}$`;
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).matcher(path).find() !== f.negated;
  });
}

/** ASCII letters folded, as the statement compares (lower() over escaped bytes). */
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

export interface Chunk {
  startline: number;
  data: string;
}

/** git grep's output for one file, as chunks. */
export function contentChunks(text: string, term: string): Chunk[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const needle = fold(term);
  const ranges: Array<[number, number]> = [];
  lines.forEach((line, i) => {
    if (!fold(line).includes(needle)) return;
    const from = Math.max(0, i - CONTEXT_LINES);
    const to = Math.min(lines.length - 1, i + CONTEXT_LINES);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });
  return ranges.map(([from, to]) => ({
    startline: from + 1,
    data: lines
      .slice(from, to + 1)
      .map((l) => `${l}\n`)
      .join(''),
  }));
}

/** FoundBlob#basename: the path without its extension (Pathname#sub_ext('')); a leading dot is no extension. */
export function basenameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.slice(0, dot).replace(/\./g, '') !== '' ? path.slice(0, slash + 1 + dot) : path;
}
