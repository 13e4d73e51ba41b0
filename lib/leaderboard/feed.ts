import { EventEmitter } from "node:events";
import { env } from "../env";
import { log } from "../kernel/log";
import { redisBackend, scriptRedis, scriptRunner, type ScriptRedis } from "../redis/client";

// The boards' change feed, which live streams follow. moveBoards appends each score it writes to one capped Redis
// Stream (the last FEED_LENGTH changes): every instance reads it, so a change made through one instance reaches
// streams held on another, and a reconnecting client resumes from its Last-Event-ID while that id is still in it.
// One reader per process polls it (Upstash's REST API cannot block) while someone listens, and fans the changes out
// in memory: never one Redis connection per client. Without Redis, an in-process feed with the same behaviour.

export interface BoardChange {
  /** The feed's id of the change ("<ms>-<seq>", increasing): the SSE event id. */
  id: string;
  key: string;
  member: string;
  score: number;
}

export const FEED_LENGTH = 10_000;
const POLL_MS = 250;
const POLL_BATCH = 1_000;

export interface BoardFeed {
  append(changes: { key: string; member: string; score: number }[]): Promise<void>;
  /** The newest change's id ("0-0" when none). */
  lastId(): Promise<string>;
  /** Changes after `id`, oldest first; null when the feed no longer holds every change after it (trimmed, or not an id of this feed). */
  since(id: string): Promise<BoardChange[] | null>;
  /** Calls `listener` with each batch of new changes until the returned function is called. */
  subscribe(listener: (changes: BoardChange[]) => void): () => void;
}

const ID = /^\d{1,16}-\d{1,10}$/;
/** Orders two feed ids. */
export const compareIds = (a: string, b: string) => {
  const [am, as] = a.split("-").map(Number) as [number, number];
  const [bm, bs] = b.split("-").map(Number) as [number, number];
  return am - bm || as - bs;
};

const SCRIPTS = {
  append: `for i = 1, #ARGV, 3 do redis.call('XADD', KEYS[1], 'MAXLEN', '~', ${FEED_LENGTH}, '*', 'k', ARGV[i], 'm', ARGV[i + 1], 's', ARGV[i + 2]) end return 1`,
  last: `local r = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1) if r[1] then return r[1][1] end return '0-0'`,
  // The oldest id still held, then what follows ARGV[1] (exclusive), at most ARGV[2] of them.
  since: `local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
    local out = { first[1] and first[1][1] or false }
    for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', tonumber(ARGV[2]) + 1)) do
      if e[1] ~= ARGV[1] then out[#out + 1] = { e[1], e[2][2], e[2][4], e[2][6] } end
    end
    return out`,
} as const;

type RawEntry = [string, string, string, string];
const toChange = ([id, key, member, score]: RawEntry): BoardChange => ({ id, key, member, score: Number(score) });

abstract class PollingFeed implements BoardFeed {
  private emitter = new EventEmitter().setMaxListeners(0);
  private cursor: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  abstract append(changes: { key: string; member: string; score: number }[]): Promise<void>;
  abstract lastId(): Promise<string>;
  protected abstract read(after: string, count: number): Promise<{ first: string | null; changes: BoardChange[] }>;

  async since(id: string) {
    if (!ID.test(id)) return null;
    const { first, changes } = await this.read(id, POLL_BATCH);
    // Complete only if the feed still holds the change right after `id`: its oldest entry is `id` itself or older.
    if (first !== null && compareIds(first, id) > 0 && id !== "0-0") return null;
    if (changes.length >= POLL_BATCH) return null; // too far behind: a fresh snapshot is cheaper
    return changes;
  }

  subscribe(listener: (changes: BoardChange[]) => void) {
    this.emitter.on("changes", listener);
    if (!this.timer) this.timer = setTimeout(() => void this.poll(), 0);
    return () => {
      this.emitter.off("changes", listener);
    };
  }

  private async poll() {
    try {
      this.cursor ??= await this.lastId();
      const { changes } = await this.read(this.cursor, POLL_BATCH);
      if (changes.length) {
        this.cursor = changes[changes.length - 1]!.id;
        this.emitter.emit("changes", changes);
      }
    } catch (error) {
      log("warn", { msg: "leaderboard feed unavailable; streams wait", error: String(error) });
    }
    // Keep polling only while someone listens; the next subscriber starts it again from where it stopped.
    if (this.emitter.listenerCount("changes") > 0) this.timer = setTimeout(() => void this.poll(), POLL_MS);
    else {
      this.timer = null;
      this.cursor = null;
    }
  }
}

class RedisFeed extends PollingFeed {
  private script: ReturnType<typeof scriptRunner>;
  constructor(
    redis: ScriptRedis,
    private key: string,
  ) {
    super();
    this.script = scriptRunner(redis);
  }

  private run<T>(name: keyof typeof SCRIPTS, args: (string | number)[]): Promise<T> {
    return this.script<T>(SCRIPTS[name], [this.key], args);
  }

  async append(changes: { key: string; member: string; score: number }[]) {
    if (changes.length)
      await this.run(
        "append",
        changes.flatMap((c) => [c.key, c.member, c.score]),
      );
  }

  async lastId() {
    return String(await this.run<string>("last", []));
  }

  protected async read(after: string, count: number) {
    const [first, ...entries] = await this.run<[string | null, ...RawEntry[]]>("since", [after, count]);
    return { first: first ? String(first) : null, changes: entries.map(toChange) };
  }
}

/** The same feed in process memory (development without Redis): the last FEED_LENGTH changes. */
class MemoryFeed extends PollingFeed {
  private entries: BoardChange[] = [];
  private seq = 0;

  async append(changes: { key: string; member: string; score: number }[]) {
    for (const c of changes) this.entries.push({ id: `${Date.now()}-${this.seq++}`, ...c });
    if (this.entries.length > FEED_LENGTH) this.entries.splice(0, this.entries.length - FEED_LENGTH);
  }

  async lastId() {
    return this.entries[this.entries.length - 1]?.id ?? "0-0";
  }

  protected async read(after: string, count: number) {
    return { first: this.entries[0]?.id ?? null, changes: this.entries.filter((e) => compareIds(e.id, after) > 0).slice(0, count) };
  }
}

const g = globalThis as unknown as { __boardFeed?: Promise<BoardFeed> };

/** The process's feed, on the Redis of the boards (decided once). */
export function boardFeed(): Promise<BoardFeed> {
  return (g.__boardFeed ??= redisBackend().then((b) =>
    b.kind === "memory" ? new MemoryFeed() : new RedisFeed(scriptRedis(b), `${env().LEADERBOARD_PREFIX}:changes`),
  ));
}
