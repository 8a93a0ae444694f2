// git's pkt-line framing (gitprotocol-common "pkt-line Format"): 4 lowercase hex digits of length, the length
// counting themselves; 0000 flush, 0001 delim (protocol v2), and at most 65520 bytes a line. Side-band data
// (side-band-64k) is a pkt-line whose first byte is the band: 1 pack data, 2 progress, 3 a fatal error; at most 65515
// bytes of data each (git's send_sideband caps at LARGE_PACKET_MAX - 5).
import { concatBytes } from '../git/text.ts';

export const MAX_PKT_DATA = 65516;
export const MAX_SIDEBAND_DATA = 65515;

const encoder = new TextEncoder();
const hex4 = (n: number) => n.toString(16).padStart(4, '0');

export const FLUSH = encoder.encode('0000');
export const DELIM = encoder.encode('0001');

/** One pkt-line carrying `payload` (a string is UTF-8); callers keep it within MAX_PKT_DATA. */
export function pkt(payload: string | Uint8Array): Uint8Array {
  const data = typeof payload === 'string' ? encoder.encode(payload) : payload;
  if (data.length > MAX_PKT_DATA) throw new Error(`pkt-line too long: ${data.length}`);
  const out = new Uint8Array(4 + data.length);
  out.set(encoder.encode(hex4(4 + data.length)));
  out.set(data, 4);
  return out;
}

/** `data` on side-band `band`, as many pkt-lines as it needs. */
export function sideband(band: 1 | 2 | 3, data: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += MAX_SIDEBAND_DATA) {
    const chunk = data.subarray(at, at + MAX_SIDEBAND_DATA);
    lines.push(pkt(concatBytes([Uint8Array.of(band), chunk])));
  }
  return lines;
}

export type Packet = { kind: 'data'; data: Uint8Array } | { kind: 'flush' } | { kind: 'delim' } | { kind: 'end' };

/** A request's pkt-lines, read from bytes held whole (upload-pack requests are small: wants, haves, arguments). */
export class PktReader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** Bytes not yet read (a receive-pack request's pack follows its commands). */
  rest(): Uint8Array {
    return this.bytes.subarray(this.at);
  }

  /** The next packet, or null at the end of the bytes; throws on a malformed length. */
  next(): Packet | null {
    if (this.at >= this.bytes.length) return null;
    if (this.at + 4 > this.bytes.length) throw new ProtocolError('bad line length');
    const head = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + 4));
    if (!/^[0-9a-fA-F]{4}$/.test(head)) throw new ProtocolError(`bad line length character: ${head}`);
    const length = parseInt(head, 16);
    if (length === 0) return ((this.at += 4), { kind: 'flush' });
    if (length === 1) return ((this.at += 4), { kind: 'delim' });
    if (length === 2) return ((this.at += 4), { kind: 'end' });
    if (length < 4 || this.at + length > this.bytes.length) throw new ProtocolError(`bad line length ${length}`);
    const data = this.bytes.subarray(this.at + 4, this.at + length);
    this.at += length;
    return { kind: 'data', data };
  }

  /** The next data line as text without its trailing LF; null at a flush, delim or the end. */
  line(): string | null {
    const p = this.next();
    if (!p || p.kind !== 'data') return null;
    const text = new TextDecoder().decode(p.data);
    return text.endsWith('\n') ? text.slice(0, -1) : text;
  }
}

/** A request git's own server would refuse as malformed (answered with an `ERR` line where one is expected). */
export class ProtocolError extends Error {}
