import { env } from "../../../env";
import { redisBackend, sameSlotKey, scriptRedis, scriptRunner, type ScriptRedis } from "../../../redis/client";

// The rank index: one sorted set per board (member: user id, score: packScore). Redis (Upstash or TCP) answers
// every read in one round trip through a Lua script (Upstash's REST API has no MULTI, and a script is atomic);
// without Redis (development), an in-process store with the same answers. PostgreSQL's ledger stays the truth:
// rebuildBoards() (service.ts) rewrites every board from it.
//
// Redis Cluster (docs/decisions/0073-redis-cluster.md): every script names its keys, all in one hash slot. Boards keep
// their plain names (each board hashes whole, so boards spread over the masters); a write to many boards runs one
// script per board, sent together (one round trip with auto-pipelining). A rebuild's scratch key shares its board's
// slot (sameSlotKey), so it can be renamed over it. The boards in use are listed in a registry set (`registry`), added to
// before every write: takeOffBoards reads it instead of scanning the keyspace.

export interface Scored {
  member: string;
  score: number;
}

/** A member's place: 0-based position in the board's order, its score, and how many members score strictly higher. */
export interface Standing {
  position: number;
  score: number;
  ahead: number;
}

/** An entry with its rank: 1 + how many members score strictly higher (equal scores share a rank). */
export interface Ranked extends Scored {
  rank: number;
}

export interface BoardPage {
  size: number;
  entries: Ranked[];
  me: (Ranked & { position: number }) | null;
  around: Ranked[];
}

export interface BoardStore {
  /** Sets each member's score on its board (ZADD), all in one round trip. */
  set(writes: (Scored & { key: string })[]): Promise<void>;
  /** Takes each member off its board; answers the removes that found the member there. */
  remove(removes: { key: string; member: string }[]): Promise<{ key: string; member: string }[]>;
  /** `count` members from `position` (0 = first), in order. */
  range(key: string, position: number, count: number): Promise<Scored[]>;
  /**
   * One read for a board screen: `count` ranked entries from `position`, the board's size, and when `member` is on
   * the board, its standing and the `radius` entries on each side of it.
   */
  page(key: string, position: number, count: number, member: string | null, radius: number): Promise<BoardPage>;
  /** Each member's standing on the board (null when not on it). */
  standings(key: string, members: string[]): Promise<(Standing | null)[]>;
  /** The position right after (score, member) in the board's order, whether or not that member is still there. */
  positionAfter(key: string, score: number, member: string): Promise<number>;
  /** How many members; the top score; how many score at least each of `floors` (for a distribution). */
  stats(key: string, floors: number[]): Promise<{ size: number; top: number | null; atLeast: number[] }>;
  /** Replaces the whole board with `chunks` of entries (a rebuild): written under a scratch key, then renamed over it. */
  replace(key: string, chunks: AsyncIterable<Scored[]>): Promise<void>;
  /**
   * Every board key starting with `prefix` that the store has held entries under (Redis: its registry of boards, kept
   * by set and replace, so a board emptied since may still be listed; no keyspace scan).
   */
  keys(prefix: string): Promise<string[]>;
  /** Lists boards in keys()'s answer (boards written before the registry existed: rebuildBoards names them). */
  register(keys: string[]): Promise<void>;
}

// Ranks inside a run of entries: the first needs a ZCOUNT; after it, an entry scoring less than the one before has
// exactly the entries before it ahead (position + 1), and an equal score keeps the rank.
const RANKED = `local function ranked(key, from, n)
    local out = {}
    if n <= 0 then return out end
    local flat = redis.call('ZREVRANGE', key, from, from + n - 1, 'WITHSCORES')
    local rank, prev = 0, nil
    for i = 1, #flat, 2 do
      local s = flat[i + 1]
      if prev == nil then rank = redis.call('ZCOUNT', key, '(' .. s, '+inf') + 1
      elseif tonumber(s) < tonumber(prev) then rank = from + (i - 1) / 2 + 1 end
      prev = s
      out[#out + 1] = flat[i]; out[#out + 1] = s; out[#out + 1] = rank
    end
    return out
  end`;

const SCRIPTS = {
  page: `${RANKED}
    local key, radius = KEYS[1], tonumber(ARGV[4])
    local me, around = false, false
    if ARGV[3] ~= '' then
      local s = redis.call('ZSCORE', key, ARGV[3])
      if s then
        local pos = redis.call('ZREVRANK', key, ARGV[3])
        me = { pos, s, redis.call('ZCOUNT', key, '(' .. s, '+inf') + 1 }
        local from = math.max(0, pos - radius)
        around = ranked(key, from, pos - from + radius + 1)
      end
    end
    return { redis.call('ZCARD', key), ranked(key, tonumber(ARGV[1]), tonumber(ARGV[2])), me, around }`,
  // One board's removes (ARGV: members); answers the 1-based indexes of those that were on it.
  remove: `local out = {} for i, m in ipairs(ARGV) do if redis.call('ZREM', KEYS[1], m) == 1 then out[#out + 1] = i end end return out`,
  range: `return redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')`,
  standings: `local out = {}
    for i, m in ipairs(ARGV) do
      local s = redis.call('ZSCORE', KEYS[1], m)
      if s then out[i] = { redis.call('ZREVRANK', KEYS[1], m), s, redis.call('ZCOUNT', KEYS[1], '(' .. s, '+inf') } else out[i] = false end
    end
    return out`,
  positionAfter: `local n = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf')
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])) do if m >= ARGV[2] then n = n + 1 end end
    return n`,
  stats: `local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    local out = { redis.call('ZCARD', KEYS[1]), top[2] or false }
    for i, floor in ipairs(ARGV) do out[i + 2] = redis.call('ZCOUNT', KEYS[1], floor, '+inf') end
    return out`,
  fill: `for i = 1, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end return 1`,
  clear: `redis.call('DEL', KEYS[1]) return 1`,
  swap: `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[2]) else redis.call('DEL', KEYS[2]) end return 1`,
  register: `for _, k in ipairs(ARGV) do redis.call('SADD', KEYS[1], k) end return 1`,
  registered: `return redis.call('SMEMBERS', KEYS[1])`,
} as const;

const FILL_CHUNK = 1_000;

export class RedisBoardStore implements BoardStore {
  private script: ReturnType<typeof scriptRunner>;
  /** `registry`: the set listing the boards this store writes (keys() answers from it). */
  constructor(
    redis: ScriptRedis,
    private registry: string,
  ) {
    this.script = scriptRunner(redis);
  }

  private run<T>(name: keyof typeof SCRIPTS, keys: string[], args: (string | number)[]): Promise<T> {
    return this.script<T>(SCRIPTS[name], keys, args);
  }

  async set(writes: (Scored & { key: string })[]) {
    if (!writes.length) return;
    const boards = byKey(writes);
    // Registered before (on one Redis, in the same pipeline ahead of) the writes: a board with entries is always listed.
    const registered = this.register([...boards.keys()]);
    await Promise.all([
      registered,
      ...[...boards].map(([key, w]) =>
        this.run(
          "fill",
          [key],
          w.flatMap((e) => [e.score, e.member]),
        ),
      ),
    ]);
  }

  async remove(removes: { key: string; member: string }[]) {
    if (!removes.length) return [];
    const removed = await Promise.all(
      [...byKey(removes)].map(async ([key, r]) =>
        (
          await this.run<number[]>(
            "remove",
            [key],
            r.map((e) => e.member),
          )
        ).map((i) => r[Number(i) - 1]!),
      ),
    );
    // In the order asked (a board's removes keep their order; boards come in their first remove's order).
    const found = new Set(removed.flat());
    return removes.filter((r) => found.has(r));
  }

  async register(keys: string[]) {
    if (keys.length) await this.run("register", [this.registry], keys);
  }

  async range(key: string, position: number, count: number) {
    if (count <= 0) return [];
    const flat = await this.run<(string | number)[]>("range", [key], [position, position + count - 1]);
    const out: Scored[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ member: String(flat[i]), score: Number(flat[i + 1]) });
    return out;
  }

  async standings(key: string, members: string[]) {
    if (!members.length) return [];
    const rows = await this.run<([number, string, number] | null)[]>("standings", [key], members);
    return members.map((_, i) => {
      const r = rows[i];
      return r ? { position: Number(r[0]), score: Number(r[1]), ahead: Number(r[2]) } : null;
    });
  }

  async positionAfter(key: string, score: number, member: string) {
    return Number(await this.run<number>("positionAfter", [key], [score, member]));
  }

  async page(key: string, position: number, count: number, member: string | null, radius: number): Promise<BoardPage> {
    const [size, flat, me, around] = await this.run<[number, (string | number)[], [number, string, number] | null, (string | number)[] | null]>(
      "page",
      [key],
      [position, count, member ?? "", radius],
    );
    const rankedOf = (f: (string | number)[] | null) => {
      const out: Ranked[] = [];
      for (let i = 0; f && i < f.length; i += 3) out.push({ member: String(f[i]), score: Number(f[i + 1]), rank: Number(f[i + 2]) });
      return out;
    };
    return {
      size: Number(size),
      entries: rankedOf(flat),
      me: me ? { member: member!, position: Number(me[0]), score: Number(me[1]), rank: Number(me[2]) } : null,
      around: rankedOf(around),
    };
  }

  async stats(key: string, floors: number[]) {
    const [size, top, ...atLeast] = await this.run<(number | string | null)[]>("stats", [key], floors);
    return { size: Number(size), top: top === null || top === undefined ? null : Number(top), atLeast: atLeast.map(Number) };
  }

  async replace(key: string, chunks: AsyncIterable<Scored[]>) {
    const scratch = sameSlotKey(key, ":rebuild"); // RENAME needs both keys in one slot
    await Promise.all([this.register([key]), this.run("clear", [scratch], [])]); // and a scratch key a failed rebuild left
    for await (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i += FILL_CHUNK) {
        await this.run(
          "fill",
          [scratch],
          chunk.slice(i, i + FILL_CHUNK).flatMap((e) => [e.score, e.member]),
        );
      }
    }
    await this.run("swap", [scratch, key], []);
  }

  async keys(prefix: string) {
    const found = await this.run<string[]>("registered", [this.registry], []);
    return found.map(String).filter((k) => k.startsWith(prefix));
  }
}

/** Entries grouped by their `key`, in first-seen order. */
function byKey<T extends { key: string }>(entries: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const e of entries) {
    const list = out.get(e.key);
    if (list) list.push(e);
    else out.set(e.key, [e]);
  }
  return out;
}

/** The same answers in process memory: development without Redis, boards per process. */
export class MemoryBoardStore implements BoardStore {
  private boards = new Map<string, Map<string, number>>();

  private ordered(key: string): Scored[] {
    const board = this.boards.get(key) ?? new Map<string, number>();
    // Redis's reverse order: higher score first, equal scores by member descending.
    return [...board]
      .map(([member, score]) => ({ member, score }))
      .sort((a, b) => b.score - a.score || (a.member < b.member ? 1 : a.member > b.member ? -1 : 0));
  }

  async set(writes: (Scored & { key: string })[]) {
    for (const w of writes) {
      let board = this.boards.get(w.key);
      if (!board) this.boards.set(w.key, (board = new Map()));
      board.set(w.member, w.score);
    }
  }

  async remove(removes: { key: string; member: string }[]) {
    return removes.filter((r) => this.boards.get(r.key)?.delete(r.member));
  }

  async range(key: string, position: number, count: number) {
    return count <= 0 ? [] : this.ordered(key).slice(position, position + count);
  }

  async standings(key: string, members: string[]) {
    const order = this.ordered(key);
    return members.map((m) => {
      const position = order.findIndex((e) => e.member === m);
      if (position < 0) return null;
      const score = order[position]!.score;
      return { position, score, ahead: order.filter((e) => e.score > score).length };
    });
  }

  async positionAfter(key: string, score: number, member: string) {
    return this.ordered(key).filter((e) => e.score > score || (e.score === score && e.member >= member)).length;
  }

  async stats(key: string, floors: number[]) {
    const order = this.ordered(key);
    return { size: order.length, top: order[0]?.score ?? null, atLeast: floors.map((f) => order.filter((e) => e.score >= f).length) };
  }

  async page(key: string, position: number, count: number, member: string | null, radius: number): Promise<BoardPage> {
    const order = this.ordered(key);
    const ranked = (from: number, n: number) =>
      order.slice(from, from + Math.max(0, n)).map((e) => ({ ...e, rank: 1 + order.filter((o) => o.score > e.score).length }));
    const position_ = member === null ? -1 : order.findIndex((e) => e.member === member);
    const me = position_ < 0 ? null : { ...ranked(position_, 1)[0]!, position: position_ };
    const from = Math.max(0, position_ - radius);
    return { size: order.length, entries: ranked(position, count), me, around: me ? ranked(from, position_ - from + radius + 1) : [] };
  }

  async replace(key: string, chunks: AsyncIterable<Scored[]>) {
    const board = new Map<string, number>();
    for await (const chunk of chunks) for (const e of chunk) board.set(e.member, e.score);
    this.boards.set(key, board);
  }

  async keys(prefix: string) {
    return [...this.boards.keys()].filter((k) => k.startsWith(prefix) && this.boards.get(k)!.size > 0);
  }

  async register() {} // keys() looks at the boards themselves
}

/** The registry of the boards under `prefix` (a set; no board is named "boards"). */
export const boardRegistryKey = (prefix: string) => `${prefix}:boards`;

const g = globalThis as unknown as { __boardStore?: Promise<BoardStore> };

/** The process's board store, on the same Redis as rate limits (decided once). */
export function boardStore(): Promise<BoardStore> {
  return (g.__boardStore ??= redisBackend().then((b) =>
    b.kind === "memory" ? new MemoryBoardStore() : new RedisBoardStore(scriptRedis(b), boardRegistryKey(env().LEADERBOARD_PREFIX)),
  ));
}
