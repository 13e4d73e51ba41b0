import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";

// The guard below counts under this run's own prefix, in the Redis the server would use (or in process without one).
vi.hoisted(() => {
  process.env.RATE_LIMIT_PREFIX = `t:streams:${Date.now()}:${Math.random()}`;
  process.env.STREAMS_PER_CALLER = "2";
});

import { DEFAULT_REDIS_URL } from "../../lib/env";
import { DomainError } from "../../lib/kernel/errors";
import { acquireStreamSlot, MIN_SLOT_TTL_MS, streamKey } from "../../lib/http/streams";
import { createTcpRedis, redisAnswers, TcpScriptRedis } from "../../lib/redis/client";
import { memorySlotStore, redisSlotStore, type SlotStore } from "../../lib/redis/stream-slots";
import { slotStoreBehaviour } from "../redis-behaviours";

// Stream slots (lib/redis/stream-slots.ts): the cap per key, expiry of slots nobody refreshes, release; and the guard
// every live stream takes them through (lib/http/streams.ts): 429 TOO_MANY_STREAMS, release on abort, failing open.

const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const redisUp = await redisAnswers(redisUrl, 1_000);
if (!redisUp) console.warn(`stream-slots.test.ts: no Redis answers at ${redisUrl}; skipping the Redis store's tests`);
const live = createTcpRedis(redisUrl);
const dead = createTcpRedis("redis://127.0.0.1:1");
afterAll(() => {
  live.disconnect();
  dead.disconnect();
});

describe.skipIf(!redisUp)(`stream slots over real Redis${redisUp ? "" : `: skipped, no Redis answers at ${redisUrl}`}`, () => {
  slotStoreBehaviour(() => redisSlotStore(new TcpScriptRedis(live), `t:slots:${randomUUID()}`));

  it("the key itself expires a TTL after its last write, so a crashed instance leaves nothing behind", async () => {
    const prefix = `t:slots:${randomUUID()}`;
    const store = redisSlotStore(new TcpScriptRedis(live), prefix);
    expect((await store.acquire("user:gone", "s", 5, 300, Date.now())).acquired).toBe(true);
    await store.refresh("user:gone", "s", 300, Date.now());
    expect(await live.pttl(`${prefix}:user:gone`)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 450));
    expect(await live.exists(`${prefix}:user:gone`)).toBe(0);
  });
});

describe("stream slots in process (no Redis)", () => {
  slotStoreBehaviour(() => memorySlotStore());
});

describe("the stream guard (lib/http/streams.ts)", () => {
  const request = (headers: Record<string, string> = {}, signal?: AbortSignal) => new Request("http://x/api/stream", { headers, signal });

  it("counts a Bearer caller by user, anyone else (cookie or anonymous) by client address", () => {
    expect(streamKey(request({ "x-forwarded-for": "203.0.113.5" }), "usr_1")).toBe("user:usr_1");
    expect(streamKey(request({ "x-forwarded-for": "203.0.113.5", cookie: "__session=x" }), null)).toBe("ip:203.0.113.5");
  });

  it("past the cap: 429 TOO_MANY_STREAMS with Retry-After; a release or an abort frees a slot", async () => {
    const user = `usr_${randomUUID()}`;
    const abort = new AbortController();
    const first = await acquireStreamSlot(request({}, abort.signal), user, { heartbeatMs: 500 });
    const second = await acquireStreamSlot(request(), user, { heartbeatMs: 500 });
    const refused = await acquireStreamSlot(request(), user, { heartbeatMs: 500 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "TOO_MANY_STREAMS", status: 429 });
    const retryAfter = Number((refused as DomainError).headers?.["Retry-After"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(MIN_SLOT_TTL_MS / 1000);
    first.refresh();

    abort.abort(); // the client went away
    await vi.waitFor(async () => (await acquireStreamSlot(request(), user, { heartbeatMs: 500 })).release(), { timeout: 2_000 });
    second.release();
    second.release(); // idempotent
    const again = await Promise.all([1, 2].map(() => acquireStreamSlot(request(), user, { heartbeatMs: 500 })));
    again.forEach((s) => s.release());
  });

  it("fails open when the store cannot answer: the stream opens uncounted", async () => {
    const g = globalThis as unknown as { __streamSlots?: Promise<SlotStore> };
    const chosen = g.__streamSlots;
    g.__streamSlots = Promise.resolve(redisSlotStore(new TcpScriptRedis(dead), "t:dead"));
    try {
      const started = Date.now();
      const slots = await Promise.all([1, 2, 3].map(() => acquireStreamSlot(request(), "usr_failing_open", { heartbeatMs: 500 })));
      expect(slots).toHaveLength(3);
      expect(Date.now() - started).toBeLessThan(1_500);
      slots.forEach((s) => s.release());
    } finally {
      g.__streamSlots = chosen;
    }
  });
});
