import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../../lib/db/client";
import { rawTransaction, type RawDb } from "../../lib/db/raw";
import { lockUser } from "../../lib/db/tx";
import { lockPair, lockUsers } from "../../lib/core/follows/queries";

// A user lock (FOR NO KEY UPDATE) serializes the writes of that user, but never holds up another transaction that only
// inserts a row referencing the user (its foreign-key check takes KEY SHARE): a FOR UPDATE lock would.

afterAll(() => db.$disconnect());

const newUser = async () => (await db.user.create({ data: { externalId: `user_locks_${randomUUID()}` } })).id;

/** Holds `lock` in a transaction while `during` runs on another connection; answers what `during` answered. */
async function whileLocked<T>(lock: (tx: RawDb) => Promise<unknown>, during: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const held = new Promise<void>((r) => (locked = r));
  const holder = rawTransaction(db, async (tx) => {
    await lock(tx);
    locked();
    await released;
  });
  await held;
  try {
    return await during();
  } finally {
    release();
    await holder;
  }
}

/** Runs `work` in its own transaction that gives up waiting for a lock after 500 ms: "waited" when it had to. */
const within500ms = (work: (tx: RawDb) => Promise<unknown>) =>
  rawTransaction(db, async (tx) => {
    await tx.$executeRaw`SET LOCAL lock_timeout = '500ms'`;
    await work(tx);
    return "done" as const;
  }).catch((error: unknown) => (/lock timeout/i.test(String(error)) ? ("waited" as const) : Promise.reject(error)));

describe("user locks", () => {
  const locks: [string, (tx: RawDb, a: string, b: string) => Promise<unknown>][] = [
    ["lockUser", (tx, a) => lockUser(tx, a)],
    ["lockPair", (tx, a, b) => lockPair(tx, a, b)],
    ["lockUsers", (tx, a, b) => lockUsers(tx, [a, b])],
  ];

  it.each(locks)("%s lets another transaction insert a row referencing the user, and makes a second lock wait", async (_, lock) => {
    const [a, b, muter] = [await newUser(), await newUser(), await newUser()];
    const insert = await whileLocked(
      (tx) => lock(tx, a, b),
      () => within500ms((tx) => tx.$executeRaw`INSERT INTO user_mutes (muter_id, muted_id) VALUES (${muter}::uuid, ${a}::uuid)`),
    );
    expect(insert).toBe("done");
    const second = await whileLocked(
      (tx) => lock(tx, a, b),
      () => within500ms((tx) => lockUser(tx, a)),
    );
    expect(second).toBe("waited");
  });
});
