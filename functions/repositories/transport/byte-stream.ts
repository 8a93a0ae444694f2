// A request body read as it arrives, for receive-pack: its pkt-lines, then a pack whose entries are found one after
// another (an entry's end is known only once its zlib stream has been inflated). Unread bytes are kept in one
// growing buffer, compacted as they are consumed, so a reader sees them contiguous without copying chunk lists.

export class ByteStream {
  private buffer = new Uint8Array(64 * 1024);
  private start = 0;
  private end = 0;
  private finished = false;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static of(body: ReadableStream<Uint8Array> | null): ByteStream {
    return new ByteStream((body ?? new Blob([]).stream()).getReader());
  }

  get available(): number {
    return this.end - this.start;
  }

  /** Whether the body has ended (no byte will come beyond `available`). */
  get ended(): boolean {
    return this.finished;
  }

  /** Reads one more piece of the body; false at its end. */
  async more(): Promise<boolean> {
    if (this.finished) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.finished = true;
      return false;
    }
    this.append(value);
    return true;
  }

  /** Reads until `n` bytes are available; false when the body ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.available < n) if (!(await this.more())) return false;
    return true;
  }

  /** The unread bytes (a view, valid until the next read). */
  view(): Uint8Array {
    return this.buffer.subarray(this.start, this.end);
  }

  /** Marks `n` bytes read and returns them (a view, valid until the next read). */
  take(n: number): Uint8Array {
    if (n > this.available) throw new Error('take past the available bytes');
    const out = this.buffer.subarray(this.start, this.start + n);
    this.start += n;
    return out;
  }

  /** Cancels the rest of the body (a request refused before it was read). */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private append(chunk: Uint8Array) {
    const used = this.available;
    if (this.end + chunk.length > this.buffer.length) {
      // Move the unread bytes to the front, in a larger buffer when they do not fit.
      let size = this.buffer.length;
      while (size < used + chunk.length) size *= 2;
      if (size === this.buffer.length) this.buffer.copyWithin(0, this.start, this.end);
      else {
        const next = new Uint8Array(size);
        next.set(this.buffer.subarray(this.start, this.end));
        this.buffer = next;
      }
      this.start = 0;
      this.end = used;
    }
    this.buffer.set(chunk, this.end);
    this.end += chunk.length;
  }
}
