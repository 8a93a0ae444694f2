// Local stand-in for Neon's WebSocket endpoint: one WebSocket connection = one TCP connection to a Postgres
// server on this machine (PostgreSQL, or PGlite behind pglite-socket), binary frames both ways. The Neon driver
// asks for `ws://<proxy>/v1?address=<host>:<port>`; only loopback targets are accepted. Test and dev support only.
import { createRequire } from 'node:module';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type * as WsTypes from 'ws';

// `ws` through require: under Vite (vitest projects with workerd conditions) an ESM import resolves ws's
// browser stub, whose WebSocketServer is not a constructor.
const { WebSocketServer } = createRequire(import.meta.url)('ws') as typeof WsTypes;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export interface WsProxyOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** 0 (default) lets the OS pick a free port. */
  port?: number;
  /** `host:port` used when the client names no `address` (default 127.0.0.1:5432). */
  fallback?: string;
}

export interface WsProxy {
  port: number;
  /** `127.0.0.1:<port>`: what NEON_WS_PROXY expects. */
  url: string;
  stop(): Promise<void>;
}

/** The Terminate message ('X', length 4) at the end of a frame. */
function endsWithTerminate(b: Buffer) {
  return b.length >= 5 && b[b.length - 5] === 0x58 && b.readInt32BE(b.length - 4) === 4;
}

function splitAddress(address: string): { host: string; port: number } | undefined {
  const i = address.lastIndexOf(':');
  if (i <= 0) return undefined;
  const port = Number(address.slice(i + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  return { host: address.slice(0, i), port };
}

export async function startWsProxy({ host = '127.0.0.1', port = 0, fallback = '127.0.0.1:5432' }: WsProxyOptions = {}): Promise<WsProxy> {
  const wss = new WebSocketServer({ host, port });
  const sockets = new Set<net.Socket>();

  wss.on('connection', (ws, req) => {
    const target = splitAddress(new URL(req.url ?? '/', 'http://proxy').searchParams.get('address') ?? fallback);
    if (!target || !LOOPBACK.has(target.host)) {
      ws.close(1008, 'only loopback targets are allowed');
      return;
    }
    const targetHost = target.host === 'localhost' ? '127.0.0.1' : target.host.replace(/^\[|\]$/g, '');
    const sock = net.connect({ host: targetHost, port: target.port });
    sockets.add(sock);
    sock.setNoDelay(true);
    let terminated = false;
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const b = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      sock.write(b); // buffered by net until connected
      // Real PostgreSQL closes the connection on Terminate; pglite-socket does not, and the Neon driver waits for
      // the server to close, which would leak one of pglite-socket's connection slots per client. Close our side.
      if (endsWithTerminate(b)) {
        terminated = true;
        sock.end();
      }
    });
    sock.on('data', (chunk) => {
      if (ws.readyState === ws.OPEN) ws.send(chunk);
    });
    ws.on('close', () => sock.destroy());
    ws.on('error', () => sock.destroy());
    sock.on('close', () => {
      sockets.delete(sock);
      // After Terminate the client closes the WebSocket itself; closing it from here as well races with that and
      // workerd reports the race as "Network connection lost". Only a server-side end closes it from here.
      if (terminated) setTimeout(() => ws.readyState === ws.OPEN && ws.close(1000), 5_000).unref();
      else if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1000);
    });
    sock.on('error', () => {
      if (ws.readyState === ws.OPEN) ws.close(1011, 'upstream error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  const actual = (wss.address() as AddressInfo).port;

  return {
    port: actual,
    url: `127.0.0.1:${actual}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        for (const sock of sockets) sock.destroy();
        wss.close(() => resolve());
      }),
  };
}
