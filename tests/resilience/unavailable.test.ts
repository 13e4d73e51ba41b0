import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { isDatabaseUnavailable } from "../../lib/db/unavailable";
import { DomainError, sharedErrors } from "../../lib/kernel/errors";
import { freePort } from "../../lib/ports";
import { startScratchPostgres, type ScratchPostgres } from "./scratch-postgres";

// isDatabaseUnavailable on errors provoked for real: a scratch PostgreSQL stopped mid-query and while down, and
// stand-in servers that close or never answer; errors of a reachable database must not count. Then the pool and
// the Prisma client recover after a restart, idle connections killed by it included.

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );

let scratch: ScratchPostgres;
let url: string;

beforeAll(async () => {
  scratch = await startScratchPostgres();
  url = scratch.urlOf("postgres");
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("CREATE TABLE IF NOT EXISTS t (id int PRIMARY KEY)");
  await c.query("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING");
  await c.end();
});

afterAll(async () => {
  await scratch?.destroy();
});

describe("isDatabaseUnavailable", () => {
  it("is false for errors of a reachable database and for ordinary failures", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const db = createDb(url, 1);
    try {
      expect(isDatabaseUnavailable(await failure(pool.query("INSERT INTO t VALUES (1)")))).toBe(false); // 23505
      expect(isDatabaseUnavailable(await failure(pool.query("SELEC 1")))).toBe(false); // 42601
      expect(isDatabaseUnavailable(await failure(pool.query("SET statement_timeout = 50; SELECT pg_sleep(1)")))).toBe(false); // 57014
      expect(isDatabaseUnavailable(await failure(db.$executeRawUnsafe("INSERT INTO t VALUES (1)")))).toBe(false); // P2010 around 23505
      expect(isDatabaseUnavailable(await failure(db.$queryRawUnsafe("SELECT * FROM nope")))).toBe(false);
      expect(isDatabaseUnavailable(await failure(db.user.findFirst()))).toBe(false); // no such table here: P2021
      expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
      expect(isDatabaseUnavailable(new DomainError(sharedErrors.NOT_FOUND, "x"))).toBe(false);
      expect(isDatabaseUnavailable(undefined)).toBe(false);
      expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
    } finally {
      await pool.end();
      await db.$disconnect();
    }
  });

  it("is true for pg and Prisma errors while the server shuts down and while it is down; both recover after the restart", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 2_000 });
    const lost: Error[] = [];
    pool.on("error", (e) => lost.push(e)); // as lib/db/client.ts does for the app's pool
    const db = createDb(url, 2);
    try {
      // Three idle pool connections and a busy one of each kind when the server goes away.
      await Promise.all([1, 2, 3].map(() => pool.query("SELECT pg_sleep(0.05)")));
      expect(pool.idleCount).toBe(3);
      const busyPg = failure(pool.query("SELECT pg_sleep(30)"));
      const busyPrisma = failure(db.$queryRawUnsafe("SELECT pg_sleep(30)"));
      await new Promise((r) => setTimeout(r, 300));
      await scratch.stop();

      const shutdown = [await busyPg, await busyPrisma];
      expect(shutdown[0]).toMatchObject({ code: "57P01" }); // terminating connection due to administrator command
      expect(shutdown[1]).toMatchObject({ code: "P2010", meta: { driverAdapterError: { cause: { code: "57P01" } } } });
      const down = [
        await failure(pool.query("SELECT 1")), // ECONNREFUSED
        await failure(db.$queryRawUnsafe("SELECT 1")), // P2010 around DatabaseNotReachable
        await failure(db.user.findFirst()), // P1001
        await failure(db.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1"))),
      ];
      expect(down[0]).toMatchObject({ code: "ECONNREFUSED" });
      expect(down[2]).toMatchObject({ code: "P1001" });
      for (const e of [...shutdown, ...down]) expect(isDatabaseUnavailable(e), String(e)).toBe(true);
      expect(lost.length).toBeGreaterThan(0); // the idle connections were killed (and dropped from the pool)

      await scratch.start();
      // No connection killed by the restart is handed out again: every query after it succeeds.
      for (let i = 0; i < 5; i++) {
        await expect(Promise.all([1, 2, 3].map(() => pool.query("SELECT 1 AS x")))).resolves.toHaveLength(3);
        await expect(db.$queryRawUnsafe("SELECT 1 AS x")).resolves.toEqual([{ x: 1 }]);
      }
    } finally {
      await pool.end();
      await db.$disconnect();
    }
  });

  it("is true for a server that closes the connection or never answers", async () => {
    const closing = net.createServer((socket) => socket.destroy());
    const silent = net.createServer(() => {}); // accepts and says nothing
    const sockets: net.Socket[] = [];
    silent.on("connection", (s) => sockets.push(s));
    const [closingPort, silentPort] = await Promise.all([freePort(), freePort()]);
    await Promise.all([
      new Promise<void>((r) => closing.listen(closingPort, "127.0.0.1", r)),
      new Promise<void>((r) => silent.listen(silentPort, "127.0.0.1", r)),
    ]);
    try {
      const at = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;
      const closed = await failure(new pg.Pool({ connectionString: at(closingPort) }).query("SELECT 1"));
      expect(String(closed)).toContain("Connection terminated");
      const timedOut = await failure(new pg.Pool({ connectionString: at(silentPort), connectionTimeoutMillis: 200 }).query("SELECT 1"));
      expect(String(timedOut)).toMatch(/timeout/);
      const prismaClosed = await failure(createDb(at(closingPort), 1).$queryRawUnsafe("SELECT 1"));
      for (const e of [closed, timedOut, prismaClosed]) expect(isDatabaseUnavailable(e), String(e)).toBe(true);
      const free = await freePort(); // nothing listens there
      expect(isDatabaseUnavailable(await failure(new pg.Client({ connectionString: at(free) }).connect()))).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
      closing.close();
      silent.close();
    }
  });
});
