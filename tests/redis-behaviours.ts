import { expect, it, vi } from "vitest";
import type { BoardStore } from "../lib/core/rep/leaderboard/store";
import type { Limiter } from "../lib/http/rate-limit";
import type { ChangeFeed, Change } from "../lib/redis/changes";
import type { SlotStore } from "../lib/redis/stream-slots";

// The behaviours of the stores kept in Redis, as test cases over any store: the domain tests run them on one Redis and
// in process, tests/fleet/redis-cluster.test.ts on one Redis and on a Redis Cluster (the same answers everywhere).

/** A rate limiter (policies "public": 300 / 60 s and "earn": 30 / 60 s). */
export function limiterBehaviour(make: (policy: "public" | "earn") => Limiter) {
  it("allows the policy's tokens, then blocks with a reset in the future", async () => {
    const limit = make("public");
    const id = "ip:203.0.113.7";
    // The sliding window weighs the previous 60 s window by how much of it is left, so 301 calls that cross a window
    // edge can find one more token: start well inside a window (windows are aligned to the epoch).
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 100));
    const results = [];
    for (let i = 0; i < 301; i++) results.push(await limit(id));
    expect(results.slice(0, 300).every((r) => r.allowed)).toBe(true);
    expect(results[300]).toMatchObject({ allowed: false, limit: 300, remaining: 0, degraded: false });
    expect(results[300]!.reset).toBeGreaterThan(Date.now());
    expect((await limit("ip:198.51.100.1")).allowed).toBe(true); // other identifiers are unaffected
  });

  it("concurrent requests never pass more than the limit", async () => {
    const limit = make("earn");
    const results = await Promise.all(Array.from({ length: 80 }, () => limit("u:concurrent")));
    expect(results.filter((r) => r.allowed).length).toBe(30);
  });
}

/** Stream slots (lib/redis/stream-slots.ts). */
export function slotStoreBehaviour(make: () => SlotStore) {
  const TTL = 10_000;

  it("holds at most `cap` slots per key, even when asked at once; other keys have their own", async () => {
    const store = make();
    const now = Date.now();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => store.acquire("user:a", `s${i}`, 5, TTL, now + i)));
    expect(answers.filter((a) => a.acquired)).toHaveLength(5);
    // Full: the answer says when the soonest slot lapses unless refreshed.
    const full = await store.acquire("user:a", "late", 5, TTL, now + 100);
    expect(full.acquired).toBe(false);
    expect(full.acquired ? 0 : full.freeAt).toBeGreaterThanOrEqual(now + TTL);
    expect(full.acquired ? 0 : full.freeAt).toBeLessThanOrEqual(now + 7 + TTL);
    expect((await store.acquire("ip:203.0.113.1", "other", 5, TTL, now)).acquired).toBe(true);
  });

  it("a released slot is free at once", async () => {
    const store = make();
    const now = Date.now();
    expect((await store.acquire("k", "one", 1, TTL, now)).acquired).toBe(true);
    expect((await store.acquire("k", "two", 1, TTL, now)).acquired).toBe(false);
    await store.release("k", "one");
    expect((await store.acquire("k", "two", 1, TTL, now)).acquired).toBe(true);
  });

  it("a slot nobody refreshes lapses after its TTL; a refreshed one does not", async () => {
    const store = make();
    const t = Date.now();
    expect((await store.acquire("k", "kept", 2, TTL, t)).acquired).toBe(true);
    expect((await store.acquire("k", "crashed", 2, TTL, t)).acquired).toBe(true);
    await store.refresh("k", "kept", TTL, t + TTL - 1);
    expect((await store.acquire("k", "new", 2, TTL, t + TTL - 1)).acquired).toBe(false);
    // Past the TTL: "crashed" lapsed, "kept" (refreshed) holds on.
    expect((await store.acquire("k", "new", 2, TTL, t + TTL + 1)).acquired).toBe(true);
    expect((await store.acquire("k", "newer", 2, TTL, t + TTL + 2)).acquired).toBe(false);
    // A lapsed slot is not brought back by a late refresh.
    await store.refresh("k", "crashed", TTL, t + TTL + 3);
    await store.release("k", "new");
    expect((await store.acquire("k", "newer", 2, TTL, t + TTL + 4)).acquired).toBe(true);
  });
}

/** A board store (lib/core/rep/leaderboard/store.ts); `prefix` starts every key it is given. */
export function boardStoreBehaviour(make: () => { store: BoardStore; prefix: string }) {
  it("writes many boards at once and answers ranks, pages, standings and stats on each", async () => {
    const { store, prefix } = make();
    const [a, b, c] = ["global:all", "team:t1:all", "team:t2:all"].map((k) => `${prefix}:${k}`) as [string, string, string];
    await store.set([
      { key: a, member: "u1", score: 30 },
      { key: a, member: "u2", score: 20 },
      { key: a, member: "u3", score: 20 },
      { key: a, member: "u4", score: 10 },
      { key: b, member: "u1", score: 30 },
      { key: c, member: "u2", score: 20 },
      { key: b, member: "u4", score: 10 },
    ]);
    // Higher first, equal scores by member descending, equal scores share a rank.
    expect(await store.range(a, 0, 10)).toEqual([
      { member: "u1", score: 30 },
      { member: "u3", score: 20 },
      { member: "u2", score: 20 },
      { member: "u4", score: 10 },
    ]);
    expect(await store.range(b, 0, 10)).toEqual([
      { member: "u1", score: 30 },
      { member: "u4", score: 10 },
    ]);
    expect(await store.range(c, 0, 10)).toEqual([{ member: "u2", score: 20 }]);
    const page = await store.page(a, 1, 2, "u4", 1);
    expect(page).toEqual({
      size: 4,
      entries: [
        { member: "u3", score: 20, rank: 2 },
        { member: "u2", score: 20, rank: 2 },
      ],
      me: { member: "u4", score: 10, rank: 4, position: 3 },
      around: [
        { member: "u2", score: 20, rank: 2 },
        { member: "u4", score: 10, rank: 4 },
      ],
    });
    expect(await store.standings(a, ["u2", "nobody"])).toEqual([{ position: 2, score: 20, ahead: 1 }, null]);
    expect(await store.positionAfter(a, 20, "u3")).toBe(2);
    expect(await store.stats(a, [0, 15, 25, 40])).toEqual({ size: 4, top: 30, atLeast: [4, 3, 1, 0] });
    // A second write moves a member (absolute scores).
    await store.set([{ key: a, member: "u4", score: 40 }]);
    expect((await store.range(a, 0, 1))[0]).toEqual({ member: "u4", score: 40 });
  });

  it("removes a member from many boards at once, answering the removes that found it", async () => {
    const { store, prefix } = make();
    const [a, b, c] = ["global:all", "team:t1:all", "team:t2:all"].map((k) => `${prefix}:${k}`) as [string, string, string];
    await store.set([
      { key: a, member: "u1", score: 1 },
      { key: b, member: "u1", score: 1 },
      { key: b, member: "u2", score: 2 },
    ]);
    const removes = [
      { key: a, member: "u1" },
      { key: c, member: "u1" },
      { key: b, member: "u1" },
      { key: b, member: "u9" },
    ];
    expect(await store.remove(removes)).toEqual([removes[0], removes[2]]);
    expect(await store.range(a, 0, 10)).toEqual([]);
    expect(await store.range(b, 0, 10)).toEqual([{ member: "u2", score: 2 }]);
  });

  it("replaces a board whole (written aside, then swapped in); keys lists the boards written, only under the prefix asked", async () => {
    const { store, prefix } = make();
    const a = `${prefix}:global:2030-01`;
    const b = `${prefix}:team:t3:2030-01`;
    await store.set([
      { key: a, member: "old", score: 5 },
      { key: b, member: "u1", score: 1 },
    ]);
    async function* chunks() {
      yield [
        { member: "n1", score: 3 },
        { member: "n2", score: 4 },
      ];
      yield [{ member: "n3", score: 1 }];
    }
    await store.replace(a, chunks());
    expect(await store.range(a, 0, 10)).toEqual([
      { member: "n2", score: 4 },
      { member: "n1", score: 3 },
      { member: "n3", score: 1 },
    ]);
    const replacedEmpty = `${prefix}:team:t4:all`;
    await store.replace(replacedEmpty, (async function* () {})());
    expect(await store.range(replacedEmpty, 0, 10)).toEqual([]);
    expect((await store.keys(`${prefix}:`)).filter((k) => k !== replacedEmpty).sort()).toEqual([a, b].sort());
    expect(await store.keys(`${prefix}:team:`)).not.toContain(a);
  });
}

/** A change feed of board moves (lib/redis/changes.ts). */
export function changeFeedBehaviour(
  make: () => Promise<ChangeFeed<{ key: string; member: string; score: number }, Change & { key: string; member: string; score: number }>>,
) {
  it("appends in order, answers the changes after an id, its newest id, and refuses an id it cannot follow", async () => {
    const feed = await make();
    const before = await feed.lastId();
    await feed.append([
      { key: "k1", member: "u1", score: 1 },
      { key: "k2", member: "u2", score: 2 },
    ]);
    const after = (await feed.since(before))!;
    expect(after.map(({ key, member, score }) => ({ key, member, score }))).toEqual([
      { key: "k1", member: "u1", score: 1 },
      { key: "k2", member: "u2", score: 2 },
    ]);
    expect(await feed.lastId()).toBe(after[1]!.id);
    expect(await feed.since(after[1]!.id)).toEqual([]);
    expect(await feed.since("not-an-id")).toBeNull();
  });

  it("a subscriber hears each new batch", async () => {
    const feed = await make();
    const heard: string[] = [];
    const stop = feed.subscribe((changes) => heard.push(...changes.map((c) => c.member)));
    try {
      await new Promise((r) => setTimeout(r, 300)); // the reader has its starting point
      await feed.append([{ key: "k", member: "late", score: 3 }]);
      await vi.waitFor(() => expect(heard).toContain("late"), { timeout: 3_000 });
    } finally {
      stop();
    }
  });
}
