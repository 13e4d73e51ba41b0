import { scriptRunner, type ScriptRedis } from "./client";

// Slots of long-lived streams, counted per key (a user, a client address) across instances: one sorted set per key,
// members the slot ids scored by when they lapse. A holder refreshes its slot's expiry on each heartbeat and removes
// it when its stream ends; a slot whose instance crashed lapses by itself. The set's own TTL follows the last write,
// so a key nobody holds any more disappears. Without Redis, the same in process memory (slots then count per process).

export type SlotAnswer = { acquired: true } | { acquired: false; /** Unix ms when the soonest slot lapses unless refreshed. */ freeAt: number };

export interface SlotStore {
  /** Takes a slot under `key` unless `cap` unexpired ones are held; the slot lapses `ttlMs` from `now`. */
  acquire(key: string, slot: string, cap: number, ttlMs: number, now: number): Promise<SlotAnswer>;
  /** Pushes a held slot's expiry to `ttlMs` from `now` (a lapsed, removed slot stays removed). */
  refresh(key: string, slot: string, ttlMs: number, now: number): Promise<void>;
  release(key: string, slot: string): Promise<void>;
}

const SCRIPTS = {
  // KEYS[1]: the key's slots; ARGV: now, slot, cap, ttl. Returns { 1 } or { 0, soonest expiry }.
  acquire: `
    local now, ttl = tonumber(ARGV[1]), tonumber(ARGV[4])
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
    if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
      local soonest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
      return { 0, tonumber(soonest[2]) }
    end
    redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
    redis.call('PEXPIRE', KEYS[1], ttl)
    return { 1 }`,
  // ARGV: now, slot, ttl.
  refresh: `
    if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
      redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), ARGV[2])
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
    end
    return 1`,
  release: `return redis.call('ZREM', KEYS[1], ARGV[1])`,
};

export function redisSlotStore(redis: ScriptRedis, prefix: string): SlotStore {
  const run = scriptRunner(redis);
  const k = (key: string) => `${prefix}:${key}`;
  return {
    async acquire(key, slot, cap, ttlMs, now) {
      const [ok, freeAt] = await run<[number, number?]>(SCRIPTS.acquire, [k(key)], [now, slot, cap, ttlMs]);
      return Number(ok) === 1 ? { acquired: true } : { acquired: false, freeAt: Number(freeAt) };
    },
    async refresh(key, slot, ttlMs, now) {
      await run(SCRIPTS.refresh, [k(key)], [now, slot, ttlMs]);
    },
    async release(key, slot) {
      await run(SCRIPTS.release, [k(key)], [slot]);
    },
  };
}

export function memorySlotStore(): SlotStore {
  const slots = new Map<string, Map<string, number>>(); // key → slot → expiry
  let sweptAt = 0;
  const live = (key: string, now: number) => {
    const held = slots.get(key);
    if (!held) return null;
    for (const [slot, expiry] of held) if (expiry <= now) held.delete(slot);
    if (!held.size) slots.delete(key);
    return held.size ? held : null;
  };
  return {
    async acquire(key, slot, cap, ttlMs, now) {
      if (now - sweptAt > ttlMs) {
        // Now and then, forget keys whose slots all lapsed without a release (a stream that died unnoticed).
        for (const other of slots.keys()) live(other, now);
        sweptAt = now;
      }
      const held = live(key, now) ?? new Map<string, number>();
      if (held.size >= cap) return { acquired: false, freeAt: Math.min(...held.values()) };
      slots.set(key, held.set(slot, now + ttlMs));
      return { acquired: true };
    },
    async refresh(key, slot, ttlMs, now) {
      const held = live(key, now);
      if (held?.has(slot)) held.set(slot, now + ttlMs);
    },
    async release(key, slot) {
      const held = slots.get(key);
      held?.delete(slot);
      if (held && !held.size) slots.delete(key);
    },
  };
}
