// The layout commits and tags share: header lines `<name> <value>\n`, a value's further lines indented by one space
// (a gpgsig, a mergetag), a blank line, then the message as raw bytes. Header text goes through decodeText so any
// byte survives the round trip.
import { concatBytes, decodeText, encodeText } from './text.ts';

export type Header = [name: string, value: string];

/**
 * Headers in order (continuation lines joined un-indented, as `\n`-separated lines) and the message bytes, as a plain
 * Uint8Array copy (a Buffer's slice would be a view of the whole object).
 */
export function splitObject(body: Uint8Array, kind: string): { headers: Header[]; message: Uint8Array } {
  let end = -1;
  for (let i = 0; i + 1 < body.length; i++) {
    if (body[i] === 0x0a && body[i + 1] === 0x0a) {
      end = i;
      break;
    }
  }
  // git always writes the blank line, even before an empty message; an object without one cannot be re-encoded.
  if (end < 0) throw new Error(`malformed ${kind}: no blank line after the headers`);
  const headers: Header[] = [];
  for (const line of decodeText(body.subarray(0, end)).split('\n')) {
    const last = headers[headers.length - 1];
    if (line.startsWith(' ') && last) {
      last[1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(' ');
    if (space <= 0) throw new Error(`malformed ${kind} header line ${JSON.stringify(line)}`);
    headers.push([line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message: new Uint8Array(body.subarray(end + 2)) };
}

/** The inverse of splitObject. */
export function joinObject(headers: readonly Header[], message: Uint8Array): Uint8Array {
  const lines = headers.map(([name, value]) => {
    if (!/^[^\s]+$/.test(name)) throw new Error(`invalid header name ${JSON.stringify(name)}`);
    return `${name} ${value.replaceAll('\n', '\n ')}\n`;
  });
  return concatBytes([encodeText(`${lines.join('')}\n`), message]);
}
