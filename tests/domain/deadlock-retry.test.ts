import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../lib/db/client";
import { rawTransaction, type RawDb } from "../../lib/db/raw";
import { isTransactionConflict, txOptions } from "../../lib/db/tx";
import { errorResponse } from "../../lib/http/route";

// Every interactive transaction (db.$transaction(fn) and rawTransaction) runs again once when PostgreSQL aborts it
// for a deadlock (40P01) or a serialization failure (40001); a conflict that survives the retry reaches a client as
// 503 SERVICE_UNAVAILABLE with Retry-After, never 500 (issue 44).

afterAll(() => db.$disconnect());

const newUser = async () => (await db.user.create({ data: { externalId: `user_deadlock_${randomUUID()}` } })).id;
const pointsOf = async (id: string) => Number((await db.user.findUniqueOrThrow({ where: { id } })).questPoints);
const bump = (tx: RawDb, id: string) => tx.$executeRaw`UPDATE users SET quest_points = quest_points + 1 WHERE id = ${id}::uuid`;

/**
 * Two transactions that lock rows `a` and `b` in opposite orders, each taking its second lock only once both hold
 * their first (on their first run): a real deadlock, which PostgreSQL breaks by aborting one of them.
 */
async function crossLocks(run: (work: (tx: RawDb) => Promise<void>) => Promise<void>) {
  const [a, b] = [await newUser(), await newUser()];
  const runs = { ab: 0, ba: 0 };
  let arrived = 0;
  let bothHold!: () => void;
  const barrier = new Promise<void>((resolve) => (bothHold = resolve));
  const firstLocks = async () => {
    if (++arrived === 2) bothHold();
    await barrier;
  };
  const order = (first: string, second: string, key: keyof typeof runs) => async (tx: RawDb) => {
    runs[key]++;
    await bump(tx, first);
    if (runs[key] === 1) await firstLocks();
    await bump(tx, second);
  };
  const results = await Promise.allSettled([run(order(a, b, "ab")), run(order(b, a, "ba"))]);
  return { results, runs, points: [await pointsOf(a), await pointsOf(b)] };
}

describe("deadlock retry (lib/db/tx.ts retryingConflicts)", () => {
  it("db.$transaction: the transaction PostgreSQL aborts for a deadlock runs once more and commits", async () => {
    const { results, runs, points } = await crossLocks((work) => db.$transaction((tx) => work(tx), txOptions()));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    // Three runs in all: both first runs, and the second run of the one aborted.
    expect(runs.ab + runs.ba).toBe(3);
    // Each transaction's two updates committed once; the aborted run's left nothing.
    expect(points).toEqual([2, 2]);
  });

  it("rawTransaction (the app's direct path): the same", async () => {
    const { results, runs, points } = await crossLocks((work) => rawTransaction(db, work));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(runs.ab + runs.ba).toBe(3);
    expect(points).toEqual([2, 2]);
  });

  it("runs a transaction at most twice: a second conflict reaches the caller, and any other error is not retried", async () => {
    for (const code of ["40P01", "40001"]) {
      let tries = 0;
      const failing = db.$transaction(async () => {
        tries++;
        throw Object.assign(new Error(`conflict ${code}`), { code });
      });
      await expect(failing).rejects.toMatchObject({ code });
      expect(tries).toBe(2);
    }
    let tries = 0;
    await expect(
      rawTransaction(db, async () => {
        tries++;
        throw Object.assign(new Error("unique"), { code: "23505" });
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(tries).toBe(1);
  });

  it("recognizes a conflict however the driver reports it", () => {
    expect(isTransactionConflict(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toBe(true);
    expect(isTransactionConflict({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "40P01", kind: "TransactionWriteConflict" } } } })).toBe(
      true,
    );
    expect(isTransactionConflict({ code: "P2034" })).toBe(true);
    expect(isTransactionConflict(new Error("wrapped", { cause: { code: "40001" } }))).toBe(true);
    expect(isTransactionConflict({ code: "23505" })).toBe(false);
    expect(isTransactionConflict(null)).toBe(false);
  });

  it("a conflict that reaches the pipeline is 503 SERVICE_UNAVAILABLE with Retry-After, not 500", async () => {
    const response = errorResponse(Object.assign(new Error("deadlock detected"), { code: "40P01" }), "req-deadlock");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
  });
});
