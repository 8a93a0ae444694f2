// Commit objects: `tree`, `parent`s, `author`, `committer`, any other headers (encoding, mergetag, gpgsig...) in
// their order, a blank line, the message as raw bytes (in the `encoding` header's charset when there is one).
import { joinObject, splitObject, type Header } from './headers.ts';
import { isOid } from './oid.ts';
import { formatSignature, parseSignature, type Signature } from './signature.ts';
import { concatBytes, decodeText } from './text.ts';

export type { Signature };

export interface Commit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** Every header after `committer`, in order; a multi-line value (gpgsig, mergetag) as its lines un-indented. */
  headers: Header[];
  /** The raw bytes after the blank line. */
  message: Uint8Array;
}

export function encodeCommit(commit: Commit): Uint8Array {
  for (const oid of [commit.tree, ...commit.parents]) {
    if (!isOid(oid)) throw new Error(`invalid object id in commit: ${JSON.stringify(oid)}`);
  }
  return joinObject(
    [
      ['tree', commit.tree],
      ...commit.parents.map((parent): Header => ['parent', parent]),
      ['author', formatSignature(commit.author)],
      ['committer', formatSignature(commit.committer)],
      ...commit.headers,
    ],
    commit.message,
  );
}

/** Reads a commit laid out as git writes (and fsck requires): tree, parents, author, committer, then the rest. */
export function decodeCommit(body: Uint8Array): Commit {
  const { headers, message } = splitObject(body, 'commit');
  let i = 0;
  const take = (name: string) => {
    const header = headers[i];
    if (header?.[0] !== name) return undefined;
    i++;
    return header[1];
  };
  const tree = take('tree');
  if (tree === undefined || !isOid(tree)) throw new Error('malformed commit: no tree');
  const parents: string[] = [];
  for (let parent = take('parent'); parent !== undefined; parent = take('parent')) {
    if (!isOid(parent)) throw new Error(`malformed commit: parent ${JSON.stringify(parent)}`);
    parents.push(parent);
  }
  const author = take('author');
  const committer = take('committer');
  if (author === undefined || committer === undefined) throw new Error('malformed commit: no author or committer');
  return { tree, parents, author: parseSignature(author), committer: parseSignature(committer), headers: headers.slice(i), message };
}

const header = (commit: Commit, name: string) => commit.headers.find(([n]) => n === name)?.[1];

/** The message as text: UTF-8, or the charset the `encoding` header names when this runtime's TextDecoder knows it. */
export function messageText(commit: Commit): string {
  const encoding = header(commit, 'encoding');
  if (encoding !== undefined) {
    try {
      return new TextDecoder(encoding).decode(commit.message);
    } catch {
      // An unknown label (workerd knows fewer than Node): fall through to UTF-8, as git log does with a bad one.
    }
  }
  return new TextDecoder().decode(commit.message);
}

const NO_MESSAGE = 'No commit message';

/**
 * GitLab's commit title: the message's first line (up to \r or \n), 'No commit message' when the message is blank;
 * a line of 100 characters or more is cut at the last space within 78 characters (or at 78) and ends in '...'.
 */
export function title(commit: Commit): string {
  const text = messageText(commit);
  if (/^\s*$/.test(text)) return NO_MESSAGE;
  const first = [...text.split(/[\r\n]/, 1)[0]!];
  if (first.length < 100) return first.join('');
  const space = first.lastIndexOf(' ', 78);
  return `${first.slice(0, space < 0 ? 78 : space).join('')}...`;
}

const SIGNATURE_HEADER = 'gpgsig ';

/**
 * git's parse_signed_commit (commit.c): the `gpgsig` header's value (its lines un-indented, every such header in order)
 * and the object without those headers, which is what was signed. Byte for byte: the object is split at line ends,
 * never decoded and re-encoded. Null for an unsigned commit.
 */
export function extractSignature(body: Uint8Array): { signature: string; signed: Uint8Array } | null {
  const signed: Uint8Array[] = [];
  const signature: Uint8Array[] = [];
  const header = new TextEncoder().encode(SIGNATURE_HEADER);
  const startsWithHeader = (at: number) => header.every((b, k) => body[at + k] === b);
  let inSignature = false;
  let line = 0;
  while (line < body.length) {
    const eol = body.indexOf(0x0a, line);
    const next = eol < 0 ? body.length : eol + 1;
    if (body[line] === 0x0a) {
      // The blank line: the message follows, all of it signed.
      signed.push(body.subarray(line));
      break;
    }
    if (inSignature && body[line] === 0x20) signature.push(body.subarray(line + 1, next));
    else if (startsWithHeader(line)) {
      inSignature = true;
      signature.push(body.subarray(line + header.length, next));
    } else {
      inSignature = false;
      signed.push(body.subarray(line, next));
    }
    line = next;
  }
  if (!signature.length) return null;
  return { signature: decodeText(concatBytes(signature)), signed: concatBytes(signed) };
}
