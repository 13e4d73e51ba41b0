import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { startPostgresPair, type PostgresPair } from "../../scripts/fleet/postgres";
import { UNDOCUMENTED_ERROR_CODE } from "../setup/server-log";
import { startTestServer } from "../setup/test-server";

// Read replicas (docs/decisions/0072-read-replicas.md) on real engines: a scratch PostgreSQL 15 primary and its
// streaming hot standby (scripts/fleet/postgres.ts), `next start` reading search through readMayLag. A row written on
// the primary while the standby's replay is paused shows which server answered: unseen means the replica did.

type Server = Awaited<ReturnType<typeof startTestServer>>;

const MAX_LAG_MS = 3_000;
const READ_YOUR_WRITES_MS = 5_000;

let pair: PostgresPair;
let server: Server; // with DATABASE_REPLICA_URL
let plain: Server; // without
let primary: pg.Client;
let replica: pg.Client;
const replicaLog: string[] = [];
let serverStopped = false;
/** When the lagging and the down episodes ran (the log lines are judged by their time). */
const phases: Record<"lagging" | "down", { from: string; to: string }> = { lagging: { from: "", to: "" }, down: { from: "", to: "" } };

const fail = (l: string) => l.includes(UNDOCUMENTED_ERROR_CODE) || l.includes('"unhandled error"');
const boot = (label: string, env: (run: string) => Record<string, string>, reportLine: (l: string) => boolean = () => false) =>
  startTestServer({
    adminUrl: pair.primaryUrl("postgres"),
    dbPrefix: "fan_replica",
    seed: false,
    fixtures: ["clerk"],
    label,
    reportLine,
    failLine: fail,
    env: ({ run }) => ({
      DB_POOL_SIZE: "4",
      RATE_LIMIT_PREFIX: `replica:${run}`,
      LEADERBOARD_PREFIX: `lb:replica:${run}`,
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
      VALIDATE_RESPONSES: "1",
      ...env(run),
    }),
  });

beforeAll(async () => {
  pair = await startPostgresPair();
  server = await boot(
    "replica server",
    (run) => ({
      DATABASE_REPLICA_URL: pair.replicaUrl(`fan_replica_${run}`)!,
      REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      REPLICA_READ_YOUR_WRITES_MS: String(READ_YOUR_WRITES_MS),
    }),
    (l) => {
      if (l.includes("read replica")) replicaLog.push(l);
      return false;
    },
  );
  plain = await boot("server without replica", () => ({}));
  const dbName = new URL(server.databaseUrl).pathname.slice(1);
  primary = new pg.Client({ connectionString: pair.primaryUrl(dbName) });
  replica = new pg.Client({ connectionString: pair.replicaUrl(dbName)! });
  // The standby is stopped in a test: its connection's end must not be an unhandled error.
  replica.on("error", () => {});
  primary.on("error", () => {}); // (its database is dropped when the server stops)
  await primary.connect();
  await replica.connect();
  await primary.query("CREATE TABLE replica_probe (n serial PRIMARY KEY)");
});

afterAll(async () => {
  await primary?.end().catch(() => {});
  await replica?.end().catch(() => {});
  await plain?.stop();
  if (!serverStopped) await server?.stop();
  await pair?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(200);
  }
}

async function call(s: Server, method: string, path: string, sub?: string, json?: unknown) {
  const headers: Record<string, string> = sub ? { authorization: `Bearer ${signSessionToken(s.privateKey, sub)}` } : {};
  if (json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${s.baseUrl}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

const fan = () => `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
const fanA = fan();
const fanB = fan();

/** A team written straight on the primary (database `db`'s client), with a name no other test uses. */
async function insertTeam(client: pg.Client): Promise<{ id: string; name: string }> {
  const id = `t-${randomUUID().slice(0, 8)}`;
  const name = `Quokkaville ${randomUUID().slice(0, 6)}`;
  await client.query("INSERT INTO teams (id, slug, name, updated_at) VALUES ($1, $1, $2, now())", [id, name]);
  return { id, name };
}

/** Whether the team search (a read that may lag) finds the team, as `sub` asks it. */
async function finds(s: Server, team: { id: string; name: string }, sub: string): Promise<boolean> {
  const res = await call(s, "GET", `/api/v1/search?type=teams&q=${encodeURIComponent(team.name)}`, sub);
  expect(res.status).toBe(200);
  return res.body.data.results.some((r: { id: string }) => r.id === team.id);
}

/** The standby has replayed everything up to a fresh commit: its lag is near zero now. */
async function caughtUp(): Promise<void> {
  const { rows } = await primary.query<{ n: number }>("INSERT INTO replica_probe DEFAULT VALUES RETURNING n");
  await until(
    async () => (await replica.query("SELECT 1 FROM replica_probe WHERE n = $1", [rows[0]!.n])).rowCount,
    (n) => n === 1,
    "the standby to replay",
  );
}

const readiness = async (s: Server) => {
  const res = await call(s, "GET", "/api/health/ready");
  return { status: res.status, body: res.body.data };
};

describe("read replicas", () => {
  it("serves a heavy read from the replica while it is fresh: a row the standby has not replayed is not seen, then is", async () => {
    await call(server, "GET", "/api/user", fanB); // the fan's row exists before the test proper
    await caughtUp();
    await pair.pauseReplay();
    try {
      const team = await insertTeam(primary);
      expect(await finds(server, team, fanB)).toBe(false); // the replica answered
      const ready = await readiness(server);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.replica).toMatchObject({ status: "ok", replicas: [{ status: "ok", lagBytes: expect.any(Number) }] });
      expect(ready.body.checks.replica.lagMs).toBeLessThan(MAX_LAG_MS);
      await pair.resumeReplay();
      await until(() => finds(server, team, fanB), Boolean, "the replica to show the team");
    } finally {
      await pair.resumeReplay();
    }
  });

  it("sends a fan who just wrote to the primary (read-your-writes); another fan still reads the replica", async () => {
    await call(server, "GET", "/api/user", fanA);
    await caughtUp();
    expect((await call(server, "PATCH", "/api/user/settings", fanA, { country: "nl" })).status).toBe(200);
    await pair.pauseReplay();
    try {
      const team = await insertTeam(primary);
      expect(await finds(server, team, fanA)).toBe(true); // the writer reads the primary
      expect(await finds(server, team, fanB)).toBe(false); // the other fan reads the replica
      // The mark ends after REPLICA_READ_YOUR_WRITES_MS: fan A is back on the replica (still paused, and fresh
      // enough only if little time passed; so checked against the lag rule instead in the next test).
    } finally {
      await pair.resumeReplay();
    }
  });

  it("ranks the for-you feed on the replica and stores the snapshot on the primary", async () => {
    const { rows } = await primary.query<{ id: string }>("SELECT id FROM users WHERE external_id = $1", [fanA]);
    const posts = await primary.query<{ id: string }>(
      `INSERT INTO posts (id, author_id, content, publish_at) SELECT gen_random_uuid(), $1, 'post ' || i, now() - make_interval(mins => i) FROM generate_series(1, 3) i RETURNING id`,
      [rows[0]!.id],
    );
    await caughtUp();
    const feed = await call(server, "GET", "/api/v1/feeds/for-you", fanB);
    expect(feed.status).toBe(200);
    expect(feed.body.data.order).toBe("ranked");
    // Ranked by freshness: newest first; the snapshot they were read from is on the primary.
    expect(feed.body.data.posts.map((p: { id: string }) => p.id)).toEqual(posts.rows.map((p) => p.id));
    const { rows: snaps } = await primary.query("SELECT size FROM feed_snapshots s JOIN users u ON u.id = s.user_id WHERE u.external_id = $1", [fanB]);
    expect(snaps).toEqual([{ size: 3 }]);
  });

  it("a leaderboard rebuild reads the ledger on the replica only once it has replayed every earlier write, else the primary", async () => {
    const { rows } = await primary.query<{ id: string }>("SELECT id FROM users WHERE external_id = $1", [fanB]);
    await caughtUp();
    await pair.pauseReplay();
    try {
      // Rep the standby has not replayed: a rebuild from the fresh-enough replica would leave it off the boards.
      await primary.query(
        `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key) VALUES (gen_random_uuid(), $1, 'club', 40, 'Replica test', 'test', $2)`,
        [rows[0]!.id, `replica-test:${randomUUID()}`],
      );
      const admin = `user_admin_${randomUUID().slice(0, 8)}`;
      const headers = { authorization: `Bearer ${signSessionToken(server.privateKey, admin, { admin: true })}` };
      const rebuilt = await fetch(`${server.baseUrl}/api/admin/leaderboard/rebuild`, { method: "POST", headers });
      expect(rebuilt.status).toBe(200);
      const checked = await (await fetch(`${server.baseUrl}/api/admin/leaderboard/check`, { headers })).json();
      expect(checked.data.drift).toBe(false);
      expect(checked.data.boards.find((b: { board: string; period: string }) => b.board === "global" && b.period === "all")).toMatchObject({
        missing: 0,
        wrong: 0,
      });
    } finally {
      await pair.resumeReplay();
    }
  });

  it("falls back to the primary when the replica is further behind than REPLICA_MAX_LAG_MS; readiness says lagging", async () => {
    await caughtUp();
    phases.lagging.from = new Date().toISOString();
    await pair.pauseReplay();
    try {
      const team = await insertTeam(primary);
      await sleep(MAX_LAG_MS + 1_200);
      const ready = await until(
        () => readiness(server),
        (r) => r.body.checks.replica.status === "lagging",
        "readiness to say lagging",
      );
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe("ok"); // a lagging replica does not degrade the process
      expect(ready.body.checks.replica.lagMs).toBeGreaterThan(MAX_LAG_MS);
      expect(ready.body.checks.replica.replicas[0].lagBytes).toBeGreaterThan(0);
      expect(await finds(server, team, fanB)).toBe(true); // current data: the primary answered
    } finally {
      await pair.resumeReplay();
    }
    await until(
      () => readiness(server),
      (r) => r.body.checks.replica.status === "ok",
      "the replica to be fresh again",
    );
    phases.lagging.to = new Date().toISOString();
  });

  it("falls back to the primary while the replica is down; readiness stays 200 and reports it down", async () => {
    phases.down.from = new Date().toISOString();
    await pair.stopReplica();
    try {
      const team = await insertTeam(primary);
      expect(await finds(server, team, fanB)).toBe(true); // a read on the way down is answered too
      const ready = await until(
        () => readiness(server),
        (r) => r.body.checks.replica.status === "down",
        "readiness to say down",
      );
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe("ok");
      expect(ready.body.checks.replica).toEqual({
        status: "down",
        lagMs: null,
        replicas: [{ status: "down", lagMs: null, lagBytes: null, checkedAt: expect.any(String) }],
      });
      expect(await finds(server, team, fanB)).toBe(true);
    } finally {
      await pair.startReplica();
    }
    await until(
      () => readiness(server),
      (r) => r.body.checks.replica.status === "ok",
      "the replica to be back",
    );
    phases.down.to = new Date().toISOString();
  });

  it("without DATABASE_REPLICA_URL reads the primary as before, and readiness says none", async () => {
    const db = new pg.Client({ connectionString: pair.primaryUrl(new URL(plain.databaseUrl).pathname.slice(1)) });
    await db.connect();
    try {
      await pair.pauseReplay(); // the standby holds this database too, but the server does not read it
      const team = await insertTeam(db);
      expect(await finds(plain, team, fanB)).toBe(true);
      const ready = await readiness(plain);
      expect(ready.status).toBe(200);
      expect(ready.body.checks.replica).toEqual({ status: "none", lagMs: null, replicas: [] });
    } finally {
      await pair.resumeReplay();
      await db.end();
    }
  });

  it("writes one log line per change of a replica's state, not one per read", async () => {
    serverStopped = true;
    await primary.end();
    await server.stop();
    const within = (l: string, p: { from: string; to: string }) => {
      const { time } = JSON.parse(l) as { time: string };
      return time >= p.from && time <= p.to;
    };
    // While paused: one line however many reads and probes came in. (A restarted standby may say lagging for a
    // moment, its lag unknown until it replays a transaction: that is another change, in the down episode.)
    const lagging = replicaLog.filter((l) => l.includes("read replica lagging") && within(l, phases.lagging));
    const down = replicaLog.filter((l) => l.includes("read replica down") && within(l, phases.down));
    expect(lagging.length).toBe(1);
    expect(down.length).toBe(1);
    expect(JSON.parse(lagging[0]!)).toMatchObject({ level: "warn", lagMs: expect.any(Number), maxLagMs: MAX_LAG_MS });
  });
});
