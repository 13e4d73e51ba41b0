// What the bench's runner and scenarios share: the settings (BENCH_DURATION, BENCH_CONNECTIONS, the bench
// database), a route case, one measurement (autocannon, with the server's and PostgreSQL's CPU time per request),
// write requests that differ per request (postEach), and the helpers the reports use.
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";
import type pg from "pg";
import { BENCH_DATABASE_URL } from "../bench-env";

export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
export const DB_URL = BENCH_DATABASE_URL;
export const PAGE = 20;

/** Users for these identity-provider subjects, made once (existing ones are kept). */
export async function ensureUsers(client: pg.Client, subs: string[]): Promise<void> {
  await client.query(
    `INSERT INTO users (id, external_id, updated_at) SELECT gen_random_uuid(), s, now() FROM unnest($1::text[]) AS s ON CONFLICT (external_id) DO NOTHING`,
    [subs],
  );
}

/** Gives each of these users `amount` COIN as a staff adjustment, so the ledger and the balance agree. */
export async function fundUsers(client: pg.Client, subs: string[], amount: number): Promise<void> {
  await client.query(
    `WITH b AS (SELECT id FROM users WHERE external_id = ANY($1::text[])),
          w AS (INSERT INTO wallets (user_id, currency, balance) SELECT id, 'COIN', $2::int8 FROM b
                ON CONFLICT (user_id, currency) DO UPDATE SET balance = wallets.balance + $2::int8 RETURNING user_id, balance)
     INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
     SELECT gen_random_uuid(), w.user_id, 'COIN', $2::int8, w.balance, 'adjustment', 'staff', 'bench', 'bench funds' FROM w`,
    [subs, amount],
  );
}

export interface Case {
  name: string;
  /** Throughput as a share of GET /api/health's in the same run that the route must reach. */
  target?: number;
  /** What autocannon sends (made when the case runs). */
  load: () => autocannon.Options | Promise<autocannon.Options>;
}

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** The server process's own CPU time per measured request (PostgreSQL's is not in it). */
  cpuUs: number;
  /** CPU time of this machine's PostgreSQL processes per measured request (other databases' work included). */
  pgUs: number;
  errors: number;
}

/** A warm-up, then DURATION seconds of load on the server `pid`. */
export async function measure(name: string, pid: number, options: autocannon.Options): Promise<Row> {
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 }); // warm-up
  const before = cpuSeconds(pid);
  const pgBefore = postgresCpuSeconds();
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const perRequest = (seconds: number) => (seconds / Math.max(r.requests.total, 1)) * 1e6;
  const cpuUs = perRequest(cpuSeconds(pid) - before);
  const pgUs = perRequest(postgresCpuSeconds() - pgBefore);
  // A 304 is the success answer of a conditional request (If-None-Match), not an error.
  const notModified = r.statusCodeStats?.["304"]?.count ?? 0;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs, pgUs, errors: r.errors + r.non2xx - notModified + r.timeouts };
}

/** POSTs that differ per request (`next` names path, caller and body): a write bench where every answer must be a 2xx. */
export function postEach(next: () => { path: string; headers: Record<string, string>; body: string }): autocannon.Request[] {
  return [
    {
      method: "POST",
      setupRequest: (req) => {
        const n = next();
        return { ...req, path: n.path, headers: { ...n.headers, "content-type": "application/json" }, body: n.body };
      },
    },
  ];
}

export const pad = (s: string | number, n: number) => String(s).padStart(n);
export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** CPU seconds (user + system) a process has used so far; Linux only (clock ticks of 1/100 s). */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/**
 * CPU seconds used so far by this machine's PostgreSQL processes (backends included; Linux /proc). Backends that
 * exited in between are missed, but the server's pool keeps its connections for the whole run.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      total += cpuSeconds(Number(entry));
    } catch {
      // gone in between
    }
  }
  return total;
}
export const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
/**
 * Two routes measured side by side in each pass: the pass (its two rounds) whose `ratio` is the median, so a pair is
 * never compared across passes (a slow spell of the machine on one side only).
 */
export function medianPair(rows: (Row & { rounds?: Row[] })[], a: string, b: string, ratio: (x: Row, y: Row) => number): [Row, Row] | undefined {
  const x = rows.find((r) => r.name === a);
  const y = rows.find((r) => r.name === b);
  if (!x || !y) return undefined;
  const pairs = (x.rounds ?? [x]).map((r, i) => [r, (y.rounds ?? [y])[i] ?? y] as [Row, Row]);
  return pairs.sort((p, q) => ratio(...p) - ratio(...q))[(pairs.length - 1) >> 1];
}
