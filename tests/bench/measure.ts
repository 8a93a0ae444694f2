// What the benchmarks share: timing a request `iterations` times and reading the database figures the app reports
// in Server-Timing (`db;dur=1.8;desc="2 queries, 1 round trip[, ws]"`), and the table they print.

export interface Row {
  name: string;
  p50: number;
  p99: number;
  db: number;
  queries: string;
  roundTrips: string;
}

/** Server-Timing's database figures: `db;dur=1.8;desc="2 queries"`, with round trips and a WebSocket when reported. */
export function dbFigures(timing: string) {
  const desc = /db;[^,]*desc="([^"]*)"/.exec(timing)?.[1] ?? '';
  return {
    ms: Number(/db;dur=([\d.]+)/.exec(timing)?.[1] ?? 0),
    queries: /(\d+) quer/.exec(desc)?.[1] ?? '-',
    roundTrips: (/(\d+) round trip/.exec(desc)?.[1] ?? '-') + (/\bws\b|websocket/i.test(desc) ? ' +ws' : ''),
  };
}

const pick = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

/** p50/p99 of `iterations` requests (the i-th gets `i`), and the last one's database figures; a 4xx/5xx stops the run. */
export async function measure(name: string, run: (i: number) => Response | Promise<Response>, iterations: number): Promise<Row> {
  const times: number[] = [];
  const dbTimes: number[] = [];
  let last = { ms: 0, queries: '-', roundTrips: '-' };
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const res = await run(i);
    const body = await res.text();
    times.push(performance.now() - start);
    if (res.status >= 400) throw new Error(`${name}: ${res.status} ${body.slice(0, 200)}`);
    last = dbFigures(res.headers.get('server-timing') ?? '');
    dbTimes.push(last.ms);
  }
  times.sort((a, b) => a - b);
  dbTimes.sort((a, b) => a - b);
  return { name, p50: pick(times, 0.5), p99: pick(times, 0.99), db: pick(dbTimes, 0.5), queries: last.queries, roundTrips: last.roundTrips };
}

/** The table: one row a request, its p50 against the first row's (GET /version). */
export function printRows(title: string, rows: readonly Row[]): void {
  const base = rows[0]!.p50;
  console.log(
    title.padEnd(30),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'db p50'.padStart(8),
    'queries'.padStart(8),
    'trips'.padStart(8),
    'x /version'.padStart(11),
  );
  for (const r of rows) {
    console.log(
      r.name.padEnd(30),
      r.p50.toFixed(2).padStart(8),
      r.p99.toFixed(2).padStart(8),
      r.db.toFixed(1).padStart(8),
      r.queries.padStart(8),
      r.roundTrips.padStart(8),
      `${(r.p50 / base).toFixed(1)}x`.padStart(11),
    );
  }
}
