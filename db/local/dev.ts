// `npm run dev`: the real Worker (functions/index.ts) in `wrangler dev`, on the embedded database.
// PGlite cannot run inside workerd, so it runs here, in Node: persisted under .data/pglite (PGLITE_DIR), exposed on
// the Postgres wire protocol by pglite-socket, with the local stand-ins for Neon's WebSocket and HTTP endpoints in
// front of it. The Worker keeps its production Neon drivers and is pointed at them through --var.
// `npm start` and `npm run dev` share .data/pglite: run one at a time.
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { spawn } from 'node:child_process';
import { pgliteProvider } from '../client.ts';
import { bootstrapRoot } from '../../functions/users/bootstrap.ts';
import { localEncryptionKey } from './encryption-key.ts';
import { openEmbedded } from './embedded.ts';
import { startNeonHttpShim } from './neon-http-shim.ts';
import { startWsProxy } from './ws-proxy.ts';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}
interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  db: PGlite;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

/**
 * pglite-socket 0.2.17 multiplexes its connections onto PGlite's one session message by message, keeping a
 * connection's affinity only inside an SQL transaction. Extended-protocol groups (Parse/Bind/Describe/Execute/Sync)
 * of concurrent connections then interleave and clobber each other's unnamed statement and portal ("portal does not
 * exist", or silently wrong rows), and a failed message stops the queue for good (electric-sql/pglite#1046, #985;
 * fix proposed in #977, unreleased). Concurrent requests through the Neon HTTP shim hit this at once.
 * Until a release fixes it: keep the session with one connection from its first message up to a group boundary
 * (Sync, simple Query, Terminate, startup) and for as long as it is inside a transaction; a failure rejects only
 * that message. Written against the queue of the exact pinned version (package.json pins 0.2.17).
 */
function serializeMessageGroups(server: PGLiteSocketServer) {
  const q = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let owner: number | null = null;
  const live = () => (server as unknown as { handlers: Set<{ handlerId: number }> }).handlers;
  const isBoundary = (m: Uint8Array) => m[0] === 0x53 /* S */ || m[0] === 0x51 /* Q */ || m[0] === 0x58 /* X */ || m[0] === 0; /* startup, SSL */

  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        let index = 0;
        if (owner !== null) {
          index = this.queue.findIndex((m) => m.handlerId === owner);
          if (index === -1) {
            if ([...live()].some((h) => h.handlerId === owner)) break; // the owner's next message is on its way
            owner = null; // the owner went away mid-group: its detach rolled back any transaction
            index = 0;
          }
        }
        const item = this.queue.splice(index, 1)[0]!;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        owner = isBoundary(item.message) && !this.db.isInTransaction() ? null : item.handlerId;
      }
    } finally {
      this.processing = false;
    }
  };

  q.clearTransactionIfNeeded = async function clearTransactionIfNeeded(this: QueryQueue, handlerId: number) {
    if (owner !== handlerId) return;
    owner = null;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    await this.processQueue();
  };
}

const port = Number(process.env.PORT ?? 8787);
const dataDir = process.env.PGLITE_DIR ?? '.data/pglite';
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;

const client = await openEmbedded(dataDir);
const root = await bootstrapRoot(pgliteProvider(client).open({ queries: 0, ms: 0 }, () => undefined).transaction);

// Neon opens one connection per Pool client and the HTTP shim keeps a few: leave room for both.
const socketServer = new PGLiteSocketServer({ db: client, host: '127.0.0.1', port: 0, maxConnections: 64 });
serializeMessageGroups(socketServer);
await socketServer.start();
const pgAddress = socketServer.getServerConn(); // 127.0.0.1:<port>
const proxy = await startWsProxy({ host: '127.0.0.1', port: 0, fallback: pgAddress });
const shim = await startNeonHttpShim({ host: '127.0.0.1', port: 0, maxConnections: 8 });
const databaseUrl = `postgresql://postgres@${pgAddress}/postgres`;

console.log(`Embedded database: ${dataDir} (PGlite on ${pgAddress}, WebSocket proxy ${proxy.url}, HTTP ${shim.url})`);

const wrangler = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--var',
    `DATABASE_URL:${databaseUrl}`,
    '--var',
    `NEON_WS_PROXY:${proxy.url}`,
    '--var',
    `NEON_HTTP_ENDPOINT:${shim.url}`,
    '--var',
    `PUBLIC_URL:${publicUrl}`,
    '--var',
    `ENCRYPTION_KEY:${process.env.ENCRYPTION_KEY ?? localEncryptionKey(dataDir)}`,
  ],
  {
    stdio: ['inherit', 'inherit', 'inherit'],
    // Its own process group, so stopping reaches npx, wrangler and workerd together.
    detached: true,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
  },
);

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (wrangler.exitCode === null && wrangler.pid) {
    try {
      process.kill(-wrangler.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await Promise.allSettled([proxy.stop(), shim.stop(), socketServer.stop()]);
  await client.close();
  process.exit(code);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
wrangler.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`wrangler dev exited (${signal ?? code}); stopping the embedded database`);
    void stop(code ?? 1);
  }
});

// Print how to sign in once the Worker answers.
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 240 && !stopping; i++) {
  try {
    await fetch(`${base}/api/v4/version`);
    console.log(`\nAPI (Worker in wrangler dev) on ${publicUrl}/api/v4`);
    if (root) {
      console.log('\nFirst start: created the administrator. These are shown once:');
      console.log(`  username:              ${root.username}`);
      console.log(`  password:              ${root.password}`);
      console.log(`  personal access token: ${root.token}   (scope api)`);
      console.log(`\nTry: curl -H "PRIVATE-TOKEN: ${root.token}" ${base}/api/v4/user\n`);
    }
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 250));
  }
}
