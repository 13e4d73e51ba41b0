// A matchday surge on the fleet (scripts/fleet/fleet.ts): a game kicking off now at a venue, `fans` distinct fans
// checking in over `seconds` (open loop: each fan's request leaves at its planned time, whatever the answers before
// it), with a burst of `burst.rate` a second for `burst.seconds` in the middle, while `streams` clients hold the game's
// and the global leaderboard's streams and readers load the dashboard and the locker room. Used by the bench's
// `surge` scenario (the 80,000 fans) and, smaller, by tests/fleet/surge.test.ts (invariants, not times).
import { randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { signWebhook } from "../../lib/http/machine-auth";

export interface SurgePlan {
  fans: number;
  seconds: number;
  burst: { seconds: number; rate: number };
  streams: number;
  /** Dashboard and locker-room reads a second, through the whole surge. */
  readsPerSecond: number;
}

export interface SurgeWorld {
  teamId: string;
  gameId: string;
  venue: { latitude: number; longitude: number };
  subs: string[];
}

/** A team of its own, a game of it starting now at a venue, and `fans` fans following the team. */
export async function prepareSurge(databaseUrl: string, fans: number): Promise<SurgeWorld> {
  const key = randomUUID().slice(0, 8);
  const [leagueId, teamId, rivalId, gameId] = [`lg_surge_${key}`, `tm_surge_${key}`, `tm_surge_rival_${key}`, `gm_surge_${key}`];
  const venue = { latitude: 51.5, longitude: -0.1 };
  const subs = Array.from({ length: fans }, (_, i) => `user_surge_${key}_${i}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The league and the rival archived, so lists show no more than the surge's own team (a check-in needs it live).
    await client.query(`INSERT INTO leagues (id, slug, name, sport, archived_at, updated_at) VALUES ($1, $2, $3, 'football', now(), now())`, [
      leagueId,
      `surge-${key}`,
      `Surge ${key}`,
    ]);
    await client.query(
      `INSERT INTO teams (id, slug, name, league_id, archived_at, updated_at) VALUES ($1, $2, 'Surge United', $5, NULL, now()), ($3, $4, 'Surge Rovers', $5, now(), now())`,
      [teamId, `surge-${key}`, rivalId, `surge-rival-${key}`, leagueId],
    );
    await client.query(
      `INSERT INTO games (id, league_id, home_team_id, away_team_id, starts_at, status, venue, venue_latitude, venue_longitude, updated_at)
       VALUES ($1, $2, $3, $4, now(), 'live', 'Surge Park', $5, $6, now())`,
      [gameId, leagueId, teamId, rivalId, venue.latitude, venue.longitude],
    );
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO users (id, external_id, updated_at) SELECT gen_random_uuid(), unnest($1::text[]), now() RETURNING id::text`,
      [subs],
    );
    await client.query(`INSERT INTO team_follows (user_id, team_id) SELECT unnest($1::uuid[]), $2`, [rows.map((r) => r.id), teamId]);
    await client.query("ANALYZE users, team_follows");
  } finally {
    await client.end();
  }
  return { teamId, gameId, venue, subs };
}

/** A route's answers: how many of each status (or error code, when none came), and the latencies of all of them. */
class RouteStats {
  statuses = new Map<number | string, number>();
  private ms: number[] = [];
  add(r: Answer) {
    this.statuses.set(r.status || r.error!, (this.statuses.get(r.status || r.error!) ?? 0) + 1);
    this.ms.push(r.ms);
  }
  /** Answers with a 5xx status, and requests that got no answer. */
  failures = () => [...this.statuses].reduce((n, [s, c]) => n + (typeof s === "string" || s >= 500 ? c : 0), 0);
  count = (status: number) => this.statuses.get(status) ?? 0;
  summary() {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN);
    return { requests: sorted.length, statuses: Object.fromEntries(this.statuses), p50: q(0.5), p99: q(0.99) };
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

type Answer = { status: number; ms: number; error?: string };

/** Requests sent again because a kept-alive connection was closed under them (see send). */
let resent = 0;

/**
 * One request; status 0 and the error's code when it could not be sent or answered. A request that fails on a reused
 * keep-alive connection before any answer (HAProxy closed it idle as the request left) is sent once more on a new
 * one, as browsers and mobile HTTP clients do and as Node's documentation advises (`request.reusedSocket`).
 */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string, retry = true): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(`${base}${path}`, { method, agent, headers: body ? { ...headers, "content-type": "application/json" } : headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ status: 0, ms: performance.now() - started, error: error.code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (retry && req.reusedSocket && error.code === "ECONNRESET") {
        resent++;
        return void send(base, method, path, headers, body, false).then((r) => resolve({ ...r, ms: performance.now() - started }));
      }
      resolve({ status: 0, ms: performance.now() - started, error: error.code ?? error.message });
    });
    req.end(body);
  });
}

/** When each fan's check-in leaves (ms from the start): a steady rate, and the burst in the middle. */
export function schedule(plan: SurgePlan): number[] {
  const burstFans = Math.min(plan.fans, plan.burst.rate * plan.burst.seconds);
  const steadySeconds = Math.max(1, plan.seconds - plan.burst.seconds);
  const steadyRate = (plan.fans - burstFans) / steadySeconds;
  const burstStart = (steadySeconds / 2) * 1000;
  const times: number[] = [];
  for (let i = 0; i < plan.fans - burstFans; i++) {
    const t = (i / steadyRate) * 1000;
    times.push(t < burstStart ? t : t + plan.burst.seconds * 1000);
  }
  for (let i = 0; i < burstFans; i++) times.push(burstStart + (i / plan.burst.rate) * 1000);
  return times.sort((a, b) => a - b);
}

interface Streams {
  opened: number;
  arrivals: Map<string, number[]>;
  boardEvents: number;
  close(): void;
}

/**
 * `count` anonymous clients, half on the game's stream and half on the global board's, each from its own address. Like
 * EventSource, a client whose stream ends (streams close themselves after a while) reconnects with Last-Event-ID.
 */
async function openStreams(base: string, gameId: string, count: number): Promise<Streams> {
  const streams: Streams = { opened: 0, arrivals: new Map(), boardEvents: 0, close: () => aborts.forEach((a) => a.abort()) };
  const aborts: AbortController[] = [];
  const client = (i: number) => {
    const abort = new AbortController();
    aborts.push(abort);
    const path = i % 2 === 0 ? `/api/events/${gameId}/stream` : "/api/leaderboard/stream?board=global&period=all";
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    let lastId: string | null = null;
    const connect = (opened: (ok: boolean) => void) => {
      const headers: Record<string, string> = { "x-forwarded-for": address, ...(lastId ? { "last-event-id": lastId } : {}) };
      const req = http.get(`${base}${path}`, { signal: abort.signal, headers, agent: false }, (res) => {
        if (res.statusCode !== 200) return void (res.resume(), opened(false));
        opened(true);
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (text: string) => {
          buffer += text;
          for (let k; (k = buffer.indexOf("\n\n")) >= 0; buffer = buffer.slice(k + 2)) {
            const block = buffer.slice(0, k);
            if (block.startsWith("id: ")) lastId = block.slice(4, block.indexOf("\n"));
            const live = block.includes("\nevent: timeline\n") ? /"event":\{"id":"([^"]+)"/.exec(block) : null;
            if (live) streams.arrivals.set(live[1]!, [...(streams.arrivals.get(live[1]!) ?? []), performance.now()]);
            else if (block.includes("\nevent: score\n")) streams.boardEvents++;
          }
        });
        res.on("end", () => !abort.signal.aborted && setTimeout(() => connect(() => {}), 200));
        res.on("error", () => {});
      });
      req.on("error", () => opened(false));
    };
    return new Promise<boolean>((resolve) => connect(resolve));
  };
  streams.opened = (await Promise.all(Array.from({ length: count }, (_, i) => client(i)))).filter(Boolean).length;
  return streams;
}

export interface SurgeOptions {
  base: string;
  privateKey: string;
  world: SurgeWorld;
  plan: SurgePlan;
  databaseUrl: string;
  /** The pooler's server connections to the database now (sampled each second). */
  serverConnections: () => Promise<number>;
  /** The live-events webhook secret: when given, a provider event a second measures stream delivery. */
  liveSecret?: string;
}

export async function runSurge(o: SurgeOptions) {
  const { world, plan, base } = o;
  const checkIns = new RouteStats();
  const dashboard = new RouteStats();
  const feed = new RouteStats();
  const streams = await openStreams(base, world.gameId, plan.streams);
  const sentLive = new Map<string, number>();
  let liveFailures = 0;
  let poolerMax = 0;
  let replicaLagMaxMs = 0;
  const sample = setInterval(() => {
    void o.serverConnections().then(
      (n) => (poolerMax = Math.max(poolerMax, n)),
      () => {},
    );
    void fetch(`${base}/api/health/ready`)
      .then((r) => r.json() as Promise<{ data?: { checks?: { replica?: { lagMs?: number | null } } } }>)
      .then(
        (b) => (replicaLagMaxMs = Math.max(replicaLagMaxMs, b.data?.checks?.replica?.lagMs ?? 0)),
        () => {},
      );
  }, 1_000);
  const times = schedule(plan);
  const location = { latitude: world.venue.latitude + 0.001, longitude: world.venue.longitude, accuracy: 20 };
  const inflight: Promise<void>[] = [];
  const started = performance.now();
  let nextRead = 0;
  let nextLive = 0;
  for (let i = 0; i < times.length;) {
    const now = performance.now() - started;
    for (; i < times.length && times[i]! <= now; i++) {
      const auth = { authorization: `Bearer ${signSessionToken(o.privateKey, world.subs[i]!, { ttlSeconds: 3600 })}` };
      const body = JSON.stringify({ teamId: world.teamId, gameId: world.gameId, location });
      inflight.push(send(base, "POST", "/api/v1/engage/quests/arena-check-in", auth, body).then((r) => checkIns.add(r)));
    }
    for (; nextRead * (1000 / plan.readsPerSecond) <= now; nextRead++) {
      // A fan who checked in earlier looks at their dashboard; anyone reads the locker room.
      const sub = world.subs[Math.floor(Math.random() * Math.max(1, i))]!;
      const auth = { authorization: `Bearer ${signSessionToken(o.privateKey, sub, { ttlSeconds: 3600 })}` };
      const stats = nextRead % 2 === 0 ? dashboard : feed;
      inflight.push(send(base, "GET", nextRead % 2 === 0 ? "/api/dashboard" : "/api/locker-room?limit=20", auth).then((r) => stats.add(r)));
    }
    for (; o.liveSecret && nextLive * 1000 <= now; nextLive++) {
      const id = `surge_${world.gameId}_${nextLive}`;
      const body = JSON.stringify({
        events: [{ id, gameId: world.gameId, seq: nextLive + 1, type: "goal", teamId: world.teamId, minute: Math.floor(nextLive / 60) }],
      });
      sentLive.set(id, performance.now());
      inflight.push(
        send(base, "POST", "/api/webhooks/live-events", { "x-signature": signWebhook(o.liveSecret, body) }, body).then(
          (r) => void (r.status !== 200 && liveFailures++),
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inflight);
  const gameStreams = Math.ceil(streams.opened / 2);
  for (let waited = 0; [...sentLive.keys()].some((id) => (streams.arrivals.get(id)?.length ?? 0) < gameStreams) && waited < 5_000; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  clearInterval(sample);
  streams.close();
  const delays = [...sentLive].flatMap(([id, at]) => (streams.arrivals.get(id) ?? []).map((t) => t - at)).sort((a, b) => a - b);
  const ledger = await ledgerOf(o.databaseUrl, world);
  const checked = checkIns.summary();
  return {
    plan,
    seconds: Math.round((performance.now() - started) / 1000),
    checkIns: checked,
    succeeded: checkIns.count(201),
    fiveHundreds: checkIns.failures() + dashboard.failures() + feed.failures(),
    /** Requests sent again after a kept-alive connection closed under them before any answer. */
    resent,
    dashboard: dashboard.summary(),
    feed: feed.summary(),
    ledger,
    streams: {
      opened: streams.opened,
      wanted: plan.streams,
      boardEvents: streams.boardEvents,
      liveEvents: sentLive.size,
      liveFailures,
      delivered: delays.length,
      expected: sentLive.size * gameStreams,
      p99: Math.round(delays[Math.min(delays.length - 1, Math.floor(0.99 * delays.length))] ?? NaN),
    },
    poolerServerConnectionsMax: poolerMax,
    replicaLagMaxMs,
  };
}

/** The surge's check-ins and their Rep as the database holds them. */
async function ledgerOf(databaseUrl: string, world: SurgeWorld) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ check_ins: string; entries: string; fans_credited: string }>(
      `SELECT (SELECT count(*) FROM arena_check_ins WHERE team_id = $1) AS check_ins,
              (SELECT count(*) FROM rep_entries WHERE grant_key LIKE 'arena_check_in:' || $1 || ':%') AS entries,
              (SELECT count(DISTINCT user_id) FROM rep_entries WHERE grant_key LIKE 'arena_check_in:' || $1 || ':%') AS fans_credited`,
      [world.teamId],
    );
    return { checkIns: Number(rows[0]!.check_ins), repEntries: Number(rows[0]!.entries), fansCredited: Number(rows[0]!.fans_credited) };
  } finally {
    await client.end();
  }
}

export type SurgeReport = Awaited<ReturnType<typeof runSurge>>;
