// The matchday room under load: LIVE_CLIENTS clients on one game's stream (GET /api/events/{gameId}/stream) while the
// data provider posts LIVE_RATE events (goals: each moves the score too) a second to POST /api/webhooks/live-events for LIVE_SECONDS; each event's delay
// from the webhook's send to its `timeline` event reaching each stream (target p99 < 1 s).
import { randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { signWebhook } from "../../lib/http/machine-auth";
import { DB_URL } from "./common";

export const LIVE_CASE = "live-stream";
export const BENCH_LIVE_SECRET = `whsec_bench_live_${randomUUID().replace(/-/g, "")}`;
const LIVE_CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 2_000);
const LIVE_RATE = 20;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);

/** A live game of two archived teams of an archived league of the bench's own. */
async function prepareGame(): Promise<{ gameId: string; home: string }> {
  const key = randomUUID().slice(0, 8);
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    const leagueId = `lg_bench_live_${key}`;
    const [home, away, gameId] = [`tm_bench_lh_${key}`, `tm_bench_la_${key}`, `gm_bench_live_${key}`];
    await client.query(`INSERT INTO leagues (id, slug, name, sport, archived_at, updated_at) VALUES ($1, $2, $3, 'football', now(), now())`, [
      leagueId,
      `bench-live-${key}`,
      `Bench live ${key}`,
    ]);
    await client.query(
      `INSERT INTO teams (id, slug, name, league_id, archived_at, updated_at) VALUES ($1, $2, 'Bench Home', $5, now(), now()), ($3, $4, 'Bench Away', $5, now(), now())`,
      [home, `bench-lh-${key}`, away, `bench-la-${key}`, leagueId],
    );
    await client.query(
      `INSERT INTO games (id, league_id, home_team_id, away_team_id, starts_at, status, updated_at) VALUES ($1, $2, $3, $4, now(), 'live', now())`,
      [gameId, leagueId, home, away],
    );
    return { gameId, home };
  } finally {
    await client.end();
  }
}

export async function measureLiveStream(base: string) {
  const { gameId, home } = await prepareGame();
  const aborts: AbortController[] = [];
  const arrivals = new Map<string, number[]>(); // provider event id → arrival times
  const ready = await Promise.all(
    Array.from({ length: LIVE_CLIENTS }, async (_, i) => {
      const abort = new AbortController();
      aborts.push(abort);
      // One address per client: one address may hold only STREAMS_PER_CALLER streams.
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      // node:http rather than fetch: a fetch body is a web stream, whose per-chunk cost in 2,000 streams of one
      // process made the load generator, not the server, the bottleneck.
      let snapshot: (ok: boolean) => void = () => {};
      const opened = new Promise<boolean>((resolve) => (snapshot = resolve));
      const req = http.get(`${base}/api/events/${gameId}/stream`, { signal: abort.signal, headers: { "x-forwarded-for": address }, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return snapshot(false);
        }
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (text: string) => {
          buffer += text;
          let k;
          while ((k = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, k);
            buffer = buffer.slice(k + 2);
            if (block.includes("event: snapshot")) snapshot(true);
            // The event's id without parsing the whole payload: the client, 2,000 streams in one process, must keep up.
            const m = block.startsWith("id: ") && block.includes("\nevent: timeline\n") ? /"event":\{"id":"([^"]+)"/.exec(block) : null;
            if (m) {
              const at = arrivals.get(m[1]!);
              if (at) at.push(performance.now());
              else arrivals.set(m[1]!, [performance.now()]);
            }
          }
        });
        res.on("end", () => snapshot(false));
        res.on("error", () => snapshot(false));
      });
      req.on("error", () => snapshot(false)); // aborted
      return opened;
    }),
  );
  const open = ready.filter(Boolean).length;
  const sent = new Map<string, number>();
  let failed = 0;
  const posts: Promise<void>[] = [];
  const total = LIVE_RATE * LIVE_SECONDS;
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    // Paced: event n goes out at n / LIVE_RATE seconds.
    const due = started + (n * 1000) / LIVE_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = `bench_${gameId}_${n}`;
    const body = JSON.stringify({ events: [{ id, gameId, seq: n + 1, type: "goal", minute: Math.floor(n / 4), teamId: home }] });
    sent.set(id, performance.now());
    posts.push(
      fetch(`${base}/api/webhooks/live-events`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-signature": signWebhook(BENCH_LIVE_SECRET, body) },
      }).then((r) => {
        if (r.status !== 200) failed++;
        return r.arrayBuffer().then(() => undefined);
      }),
    );
  }
  await Promise.all(posts);
  for (let waited = 0; [...sent.keys()].some((id) => (arrivals.get(id)?.length ?? 0) < open) && waited < 5_000; waited += 50)
    await new Promise((r) => setTimeout(r, 50));
  for (const a of aborts) a.abort();
  const delays = [...sent].flatMap(([id, at]) => (arrivals.get(id) ?? []).map((t) => t - at)).sort((a, b) => a - b);
  const q = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN;
  return { clients: LIVE_CLIENTS, open, events: total, failed, delivered: delays.length, expected: open * total, p50: q(0.5), p99: q(0.99) };
}

export function reportLiveStream(r: Awaited<ReturnType<typeof measureLiveStream>>) {
  console.log(
    `  live stream: ${r.open}/${r.clients} clients on one game, ${r.events} events at ${LIVE_RATE}/s (${r.failed} webhook failures): ${r.delivered}/${r.expected} delivered, webhook → client p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms ${r.p99 < 1000 ? "(ok, target p99 < 1 s)" : "(ABOVE the 1 s target)"}`,
  );
  if (r.delivered < r.expected || r.failed > 0 || r.open < r.clients) process.exitCode = 1;
}
