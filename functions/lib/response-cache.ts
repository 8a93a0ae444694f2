// The platform's response cache, as a domain sees it: the part of the Workers Cache API (`caches.default`) the service
// uses, keyed by a URL-shaped GET Request. The runtime's entry chooses the implementation (createApp's deps): workerd's
// own cache on the Worker, the bounded in-memory stand-in below under `npm start` and in the tests. An entry lives as
// long as its `Cache-Control: max-age` says (an answer without one is not kept, as on the Workers cache).

export interface ResponseCache {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
}

interface Entry {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  expiresAt: number;
}

const maxAgeOf = (response: Response) => {
  const m = /(?:^|,)\s*(?:s-maxage|max-age)=(\d+)/i.exec(response.headers.get('Cache-Control') ?? '');
  return m ? Number(m[1]) : 0;
};

/**
 * The local stand-in: least recently used entries go first once `maxBytes` are held; a body above `maxEntryBytes` is
 * not kept (its reading stops there, so a large answer never sits in memory whole).
 */
export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly limits: { maxBytes: number; maxEntryBytes: number } = { maxBytes: 64 * 1024 * 1024, maxEntryBytes: 16 * 1024 * 1024 }) {}

  async match(request: Request): Promise<Response | undefined> {
    const entry = this.entries.get(request.url);
    if (!entry) return undefined;
    this.entries.delete(request.url);
    if (entry.expiresAt <= Date.now()) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(request.url, entry); // most recently used now
    return new Response(chunked(entry.body), { status: entry.status, headers: entry.headers });
  }

  async put(request: Request, response: Response): Promise<void> {
    const maxAge = maxAgeOf(response);
    const body = await readAtMost(response.body, this.limits.maxEntryBytes);
    if (maxAge <= 0 || !body) return;
    this.delete(request.url);
    this.entries.set(request.url, { status: response.status, headers: [...response.headers], body, expiresAt: Date.now() + maxAge * 1000 });
    this.bytes += body.length;
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.limits.maxBytes) break;
      this.delete(key);
    }
  }

  private delete(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.body.length;
  }
}

/** A kept body read back as a network cache answers it: in chunks, as the reader pulls. */
function chunked(body: Uint8Array, size = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.slice(at, at + size));
      at += size;
    },
  });
}

/** The whole body, or null (the rest cancelled) once it passes `limit` bytes. */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
