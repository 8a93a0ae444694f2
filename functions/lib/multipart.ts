// A streaming multipart/form-data reader (RFC 7578 over RFC 2046's framing): parts come one at a time and a part's
// bytes pass through as they arrive, so a request's memory is the reader's window (a network read plus a
// delimiter), never the body. Written here because nothing in package.json streams multipart: Request.formData()
// and hono's parseBody() both buffer the whole body (an artifact upload cost ~70x its size that way), and the
// streaming parsers on npm are Node-stream based (busboy) or would need a new dependency for ~150 lines.

/** The body does not follow multipart framing (no boundary, a missing delimiter, bad headers, truncated). */
export class MalformedMultipart extends Error {}
/** The body went past the reader's `maxBytes`. */
export class BodyTooLarge extends Error {}

export interface PartHead {
  /** Content-Disposition's `name`. */
  name: string;
  /** Content-Disposition's `filename` (present, possibly empty, for a file part). */
  filename: string | undefined;
  contentType: string | undefined;
}

const CRLF = Uint8Array.of(13, 10);
const BLANK_LINE = Uint8Array.of(13, 10, 13, 10);
const MAX_HEADER_BYTES = 16 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The boundary of a `multipart/form-data` Content-Type; null for another type; MalformedMultipart without one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(;|$)/i.exec(contentType);
  if (!m) throw new MalformedMultipart('no boundary');
  return m[1] ?? m[2]!;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i !== -1 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** Content-Disposition parameters: `name="a"; filename="b.zip"` (quoted strings with backslash escapes, or tokens). */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([\w*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let m = re.exec(value); m; m = re.exec(value)) params.set(m[1]!.toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!);
  return params;
}

function parseHead(block: string): PartHead {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MalformedMultipart('bad part header');
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw new MalformedMultipart('no form-data disposition');
  const params = dispositionParams(disposition);
  const name = params.get('name');
  if (name === undefined) throw new MalformedMultipart('a part without a name');
  return { name, filename: params.get('filename'), contentType };
}

/**
 * Reads parts in order: `next()` gives the next part's head (null after the closing delimiter), `body()` its bytes
 * as they arrive. A part's body left unread is skipped by the following `next()`. Every framing error is a
 * MalformedMultipart, thrown from whichever call meets it.
 */
export class MultipartReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** `\r\n--boundary`: what ends every part's body (the body is read as if preceded by CRLF, so the first too). */
  private readonly delimiter: Uint8Array;
  private buf: Uint8Array = CRLF;
  private eof = false;
  private received = 0;
  private state: 'start' | 'body' | 'done' = 'start';

  constructor(
    stream: ReadableStream<Uint8Array>,
    boundary: string,
    private readonly maxBytes = Infinity,
  ) {
    this.reader = stream.getReader();
    this.delimiter = encoder.encode(`\r\n--${boundary}`);
  }

  /** Appends the next network read to the window; false at the end of the body. */
  private async fill(): Promise<boolean> {
    if (this.eof) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.eof = true;
      return false;
    }
    this.received += value.length;
    if (this.received > this.maxBytes) {
      await this.cancel();
      throw new BodyTooLarge();
    }
    if (this.buf.length === 0) this.buf = value;
    else {
      const joined = new Uint8Array(this.buf.length + value.length);
      joined.set(this.buf);
      joined.set(value, this.buf.length);
      this.buf = joined;
    }
    return true;
  }

  /** After a delimiter: `--` ends the body, CRLF (after optional transport padding) starts a part's headers. */
  private async afterDelimiter(): Promise<PartHead | null> {
    for (;;) {
      if (this.buf.length >= 2 && this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
        this.state = 'done';
        await this.reader.cancel().catch(() => undefined); // the epilogue is ignored
        return null;
      }
      const eol = indexOf(this.buf, CRLF, 0);
      if (eol !== -1) {
        if (decoder.decode(this.buf.subarray(0, eol)).trim() !== '') throw new MalformedMultipart('junk after a delimiter');
        this.buf = this.buf.subarray(eol + 2);
        return this.head();
      }
      if (this.buf.length > 256 || !(await this.fill())) throw new MalformedMultipart('truncated delimiter');
    }
  }

  private async head(): Promise<PartHead> {
    for (;;) {
      const end = indexOf(this.buf, BLANK_LINE, 0);
      if (end !== -1) {
        const head = parseHead(decoder.decode(this.buf.subarray(0, end)));
        // The body starts here; an empty one is followed at once by the delimiter's own CRLF.
        this.buf = this.buf.subarray(end + 4);
        this.state = 'body';
        return head;
      }
      if (this.buf.length > MAX_HEADER_BYTES) throw new MalformedMultipart('part headers too long');
      if (!(await this.fill())) throw new MalformedMultipart('truncated part headers');
    }
  }

  async next(): Promise<PartHead | null> {
    if (this.state === 'done') return null;
    if (this.state === 'body') for await (const piece of this.body()) void piece;
    // Body bytes (or, at the start, the preamble) up to the next delimiter are skipped; the window keeps only what
    // could be the start of a delimiter split across reads.
    for (;;) {
      const at = indexOf(this.buf, this.delimiter, 0);
      if (at !== -1) {
        this.buf = this.buf.subarray(at + this.delimiter.length);
        return this.afterDelimiter();
      }
      this.buf = this.buf.subarray(Math.max(0, this.buf.length - this.delimiter.length + 1));
      if (!(await this.fill())) throw new MalformedMultipart('no closing delimiter');
    }
  }

  /** The current part's bytes, as views into the reader's window (copy what you keep past the next read). */
  async *body(): AsyncGenerator<Uint8Array> {
    if (this.state !== 'body') return;
    // Everything before `\r\n--boundary` is the part's body; the window keeps back what could be a delimiter's start.
    for (;;) {
      const at = indexOf(this.buf, this.delimiter, 0);
      if (at !== -1) {
        const out = this.buf.subarray(0, at);
        this.buf = this.buf.subarray(at); // next() finds the delimiter at 0
        this.state = 'start';
        if (out.length) yield out;
        return;
      }
      const keep = this.delimiter.length - 1;
      if (this.buf.length > keep) {
        const out = this.buf.subarray(0, this.buf.length - keep);
        this.buf = this.buf.subarray(this.buf.length - keep);
        yield out;
      }
      if (!(await this.fill())) throw new MalformedMultipart('truncated part body');
    }
  }

  /** The current part's body as UTF-8 text, refused past `max` bytes. */
  async text(max: number): Promise<string> {
    const pieces: Uint8Array[] = [];
    let size = 0;
    for await (const piece of this.body()) {
      size += piece.length;
      if (size > max) throw new MalformedMultipart('form field too long');
      pieces.push(piece.slice());
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of pieces) {
      all.set(p, at);
      at += p.length;
    }
    return decoder.decode(all);
  }

  /** Stops reading (the rest of the body is not wanted). */
  async cancel() {
    this.state = 'done';
    await this.reader.cancel().catch(() => undefined);
  }
}
