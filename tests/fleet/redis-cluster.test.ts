import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Each run its own keys, in whichever Redis a case uses.
vi.hoisted(() => {
  const run = `${Date.now()}:${Math.random()}`;
  process.env.LEADERBOARD_PREFIX = `t:lb:${run}`;
  process.env.RATE_LIMIT_PREFIX = `t:rl:${run}`;
  process.env.LOG_LEVEL = "silent";
});

import { Ratelimit } from "@upstash/ratelimit";
import { Cluster } from "ioredis";
import { boardFeed } from "../../lib/core/rep/leaderboard/changes";
import { boardKey, LEFT, takeOffBoards } from "../../lib/core/rep/leaderboard/service";
import { boardRegistryKey, boardStore, MemoryBoardStore, RedisBoardStore } from "../../lib/core/rep/leaderboard/store";
import { DEFAULT_REDIS_URL } from "../../lib/env";
import { createLimiter } from "../../lib/http/rate-limit";
import { changeFeed } from "../../lib/redis/changes";
import {
  createClusterRedis,
  createTcpRedis,
  hashTag,
  redisAnswers,
  sameSlotKey,
  TcpScriptRedis,
  type RedisBackend,
  type ScriptRedis,
} from "../../lib/redis/client";
import { redisSlotStore } from "../../lib/redis/stream-slots";
import { startRedisCluster, type RedisCluster } from "../../scripts/fleet/redis-cluster";
import { boardStoreBehaviour, changeFeedBehaviour, limiterBehaviour, slotStoreBehaviour } from "../redis-behaviours";

// The service on Redis Cluster (docs/decisions/0073-redis-cluster.md): the same cases on one Redis (REDIS_URL or the
// local one) and on a three-master cluster started here from Debian's redis-server, with the same answers: the boards'
// store, the change feeds, stream slots, the rate limiter (@upstash/ratelimit through our adapter) and an erased fan
// taken off every board (the registry of boards instead of SCAN); then what only a cluster shows: each script's keys in
// one slot (CROSSSLOT otherwise), and the keys spread over the masters (no single global hash tag).

const hasRedisServer = (() => {
  try {
    execFileSync("redis-server", ["--version"]);
    return true;
  } catch {
    return false;
  }
})();
if (!hasRedisServer) console.warn("redis-cluster.test.ts: no redis-server (apt-get install redis-server); skipping the cluster's cases");
const singleUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const singleUp = await redisAnswers(singleUrl, 1_000);
if (!singleUp) console.warn(`redis-cluster.test.ts: no Redis answers at ${singleUrl}; skipping the single Redis's cases`);

let cluster: RedisCluster | undefined;
const clients: { disconnect(): void }[] = [];
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await cluster?.stop();
});

interface Backend {
  redis: ScriptRedis;
  backend: RedisBackend;
  /** The raw client, for looking at keys. */
  client: Cluster | ReturnType<typeof createTcpRedis>;
}

const backends: { name: string; up: boolean; connect: () => Promise<Backend> }[] = [
  {
    name: `one Redis (${singleUrl})`,
    up: singleUp,
    async connect() {
      const client = createTcpRedis(singleUrl);
      clients.push(client);
      return { redis: new TcpScriptRedis(client), client, backend: { kind: "tcp", url: singleUrl, configured: true } };
    },
  },
  {
    name: "Redis Cluster (three masters)",
    up: hasRedisServer,
    async connect() {
      cluster = await startRedisCluster({ masters: 3 });
      const client = createClusterRedis(cluster.nodes);
      clients.push(client);
      const redis = new TcpScriptRedis(client);
      await redis.whenReady(5_000);
      return { redis, client, backend: { kind: "cluster", nodes: cluster.nodes } };
    },
  },
];

/** The process's choice of store (decided once per process: lib/redis/client.ts), made `b` for the cases that follow. */
function useBackend(b: Backend) {
  const g = globalThis as Record<string, unknown>;
  g.__redisBackend = Promise.resolve(b.backend);
  g.__scriptRedis = b.redis;
  for (const chosen of ["__boardStore", "__changeFeeds", "__streamSlots"]) delete g[chosen];
}

const codec = {
  encode: (c: { key: string; member: string; score: number }): [string, string, string] => [c.key, c.member, String(c.score)],
  decode: (id: string, key: string, member: string, score: string) => ({ id, key, member, score: Number(score) }),
};

describe("boards and feeds in process (the same cases, no Redis)", () => {
  beforeAll(() => useBackend({ backend: { kind: "memory", reason: "test" } } as Backend));
  boardStoreBehaviour(() => ({ store: new MemoryBoardStore(), prefix: `t:${randomUUID()}` }));
  changeFeedBehaviour(() => changeFeed("test", `t:feed:${randomUUID()}`, 100, codec));
});

describe.each(backends)("$name", ({ name, up, connect }) => {
  let b: Backend;
  beforeAll(async () => {
    if (!up) return;
    b = await connect();
    useBackend(b);
  });

  describe.skipIf(!up)(`the stores${up ? "" : `: skipped, ${name} unavailable`}`, () => {
    describe("leaderboards' store", () => {
      boardStoreBehaviour(() => {
        const prefix = `t:lb:${randomUUID()}`;
        return { store: new RedisBoardStore(b.redis, boardRegistryKey(prefix)), prefix };
      });
    });

    describe("change feeds", () => {
      changeFeedBehaviour(() => changeFeed("test", `t:feed:${randomUUID()}`, 100, codec));
    });

    describe("stream slots", () => {
      slotStoreBehaviour(() => redisSlotStore(b.redis, `t:slots:${randomUUID()}`));
    });

    describe("rate limiter (@upstash/ratelimit through the TCP adapter)", () => {
      limiterBehaviour((policy) => createLimiter(policy, b.redis, { timeoutMs: 2_000, prefix: `t:${randomUUID()}` }));
    });

    it("an erased fan comes off every board it was on, past seasons' too, and only those boards' streams hear it", async () => {
      const store = await boardStore();
      const [erased, kept] = [`usr_${randomUUID()}`, `usr_${randomUUID()}`];
      const on = [boardKey("global", "all"), boardKey("global", "2030-01"), boardKey("team:t1", "all"), boardKey("team:t1", "2029-12")];
      const notOn = boardKey("team:t2", "all");
      await store.set([...on.map((key) => ({ key, member: erased, score: 7 })), ...[...on, notOn].map((key) => ({ key, member: kept, score: 3 }))]);
      const feed = await boardFeed();
      const before = await feed.lastId();

      await takeOffBoards(erased);

      for (const key of [...on, notOn]) {
        expect((await store.range(key, 0, 10)).map((e) => e.member)).toEqual([kept]);
      }
      const heard = (await feed.since(before))!;
      expect(heard.map((c) => ({ key: c.key, member: c.member, score: c.score })).sort((x, y) => x.key.localeCompare(y.key))).toEqual(
        on.map((key) => ({ key, member: erased, score: LEFT })).sort((x, y) => x.key.localeCompare(y.key)),
      );
    });
  });
});

describe.skipIf(!hasRedisServer)("only on a cluster", () => {
  let client: Cluster;
  let redis: TcpScriptRedis;
  beforeAll(async () => {
    cluster ??= await startRedisCluster();
    client = createClusterRedis(cluster.nodes);
    clients.push(client);
    redis = new TcpScriptRedis(client);
    await redis.whenReady(5_000);
  });
  const slot = async (key: string) => Number(await client.call("CLUSTER", "KEYSLOT", key));

  it("each multi-key script's keys share a slot: the limiter's two windows, a board and its rebuild's scratch key", async () => {
    const prefix = `t:${randomUUID()}`;
    const window = Math.floor(Date.now() / 60_000);
    for (const id of ["u:usr_1", "ip:2001:db8::1", "route:GET /api/cron/x", "odd}{id"]) {
      const key = (w: number) => `${prefix}:earn:${hashTag(id)}:${w}`; // @upstash/ratelimit's "<prefix>:<id>:<window>"
      expect(await slot(key(window))).toBe(await slot(key(window - 1)));
    }
    for (const board of [boardKey("global", "all"), boardKey("team:t1", "2030-01"), "lb:{tagged}:x"]) {
      expect(await slot(sameSlotKey(board, ":rebuild"))).toBe(await slot(board));
    }
  });

  it("without the hash tag the cluster refuses the limiter's script (CROSSSLOT): the tag is what makes it work", async () => {
    const untagged = new Ratelimit({ redis: redis as never, limiter: Ratelimit.slidingWindow(5, "60 s"), prefix: `t:${randomUUID()}`, timeout: 0 });
    // Two keys "<prefix>:<id>:<window>" and "…:<window - 1>" hash apart for some id among a few.
    const answers = await Promise.allSettled(["a", "b", "c", "d", "e", "f"].map((id) => untagged.limit(id)));
    expect(answers.some((a) => a.status === "rejected" && /slot/i.test(String(a.reason)))).toBe(true);
    const tagged = createLimiter("earn", redis, { timeoutMs: 2_000, prefix: `t:${randomUUID()}` });
    for (const id of ["a", "b", "c", "d", "e", "f"]) expect(await tagged(id)).toMatchObject({ allowed: true, degraded: false });
  });

  it("the keys spread over the masters: boards hash by their own names, not one global tag", async () => {
    const prefix = `t:spread:${randomUUID()}`;
    const store = new RedisBoardStore(redis, boardRegistryKey(prefix));
    await store.set(Array.from({ length: 30 }, (_, i) => ({ key: `${prefix}:team:t${i}:all`, member: "u1", score: 1 })));
    const perMaster = await Promise.all(client.nodes("master").map(async (node) => (await node.keys(`${prefix}:team:*`)).length));
    expect(perMaster.reduce((a, n) => a + n, 0)).toBe(30);
    expect(perMaster.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect((await store.keys(`${prefix}:`)).length).toBe(30); // and the registry lists them all, on whichever master it is
  });
});
