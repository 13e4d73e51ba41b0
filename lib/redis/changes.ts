import { EventEmitter } from "node:events";
import { log } from "../kernel/log";
import { redisBackend, scriptRedis, scriptRunner, type ScriptRedis } from "./client";

// A change feed that live streams follow (the leaderboards', the auctions'): writers append each change to one capped
// Redis Stream (its last `length` entries): every instance reads it, so a change made through one instance reaches
// streams held on another, and a reconnecting client resumes from its Last-Event-ID while that id is still in it.
// One reader per process and feed polls it (Upstash's REST API cannot block) while someone listens, and fans the
// changes out in memory, one array per batch for every listener: never one Redis connection per client. Without
// Redis, an in-process feed with the same behaviour. An entry is three strings (fields k, m, s); a codec maps them.

export interface Change {
  /** The feed's id of the change ("<ms>-<seq>", increasing): the SSE event id. */
  id: string;
}

export interface ChangeFeed<In, C extends Change> {
  append(changes: In[]): Promise<void>;
  /** The newest change's id ("0-0" when none). */
  lastId(): Promise<string>;
  /** Changes after `id`, oldest first; null when the feed no longer holds every change after it (trimmed, or not an id of this feed). */
  since(id: string): Promise<C[] | null>;
  /** Calls `listener` with each batch of new changes until the returned function is called. */
  subscribe(listener: (changes: C[]) => void): () => void;
}

export interface FeedCodec<In, C extends Change> {
  encode(change: In): [string, string, string];
  decode(id: string, k: string, m: string, s: string): C;
}

const POLL_MS = 250;
const POLL_BATCH = 1_000;

const ID = /^\d{1,16}-\d{1,10}$/;
/** Orders two feed ids. */
export const compareIds = (a: string, b: string) => {
  const [am, as] = a.split("-").map(Number) as [number, number];
  const [bm, bs] = b.split("-").map(Number) as [number, number];
  return am - bm || as - bs;
};

const scripts = (length: number) => ({
  append: `for i = 1, #ARGV, 3 do redis.call('XADD', KEYS[1], 'MAXLEN', '~', ${length}, '*', 'k', ARGV[i], 'm', ARGV[i + 1], 's', ARGV[i + 2]) end return 1`,
  last: `local r = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1) if r[1] then return r[1][1] end return '0-0'`,
  // The oldest id still held, then what follows ARGV[1] (exclusive), at most ARGV[2] of them.
  since: `local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
    local out = { first[1] and first[1][1] or false }
    for _, e in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', tonumber(ARGV[2]) + 1)) do
      if e[1] ~= ARGV[1] then out[#out + 1] = { e[1], e[2][2], e[2][4], e[2][6] } end
    end
    return out`,
});

type RawEntry = [string, string, string, string];

abstract class PollingFeed<In, C extends Change> implements ChangeFeed<In, C> {
  private emitter = new EventEmitter().setMaxListeners(0);
  private cursor: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    protected name: string,
    protected codec: FeedCodec<In, C>,
  ) {}

  abstract append(changes: In[]): Promise<void>;
  abstract lastId(): Promise<string>;
  protected abstract read(after: string, count: number): Promise<{ first: string | null; changes: C[] }>;

  async since(id: string) {
    if (!ID.test(id)) return null;
    const { first, changes } = await this.read(id, POLL_BATCH);
    // Complete only if the feed still holds the change right after `id`: its oldest entry is `id` itself or older.
    if (first !== null && compareIds(first, id) > 0 && id !== "0-0") return null;
    if (changes.length >= POLL_BATCH) return null; // too far behind: a fresh snapshot is cheaper
    return changes;
  }

  subscribe(listener: (changes: C[]) => void) {
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
      log("warn", { msg: `${this.name} feed unavailable; streams wait`, error: String(error) });
    }
    // Keep polling only while someone listens; the next subscriber starts it again from where it stopped.
    if (this.emitter.listenerCount("changes") > 0) this.timer = setTimeout(() => void this.poll(), POLL_MS);
    else {
      this.timer = null;
      this.cursor = null;
    }
  }
}

class RedisFeed<In, C extends Change> extends PollingFeed<In, C> {
  private script: ReturnType<typeof scriptRunner>;
  private scripts: ReturnType<typeof scripts>;
  constructor(
    name: string,
    codec: FeedCodec<In, C>,
    redis: ScriptRedis,
    private key: string,
    length: number,
  ) {
    super(name, codec);
    this.script = scriptRunner(redis);
    this.scripts = scripts(length);
  }

  private run<T>(name: "append" | "last" | "since", args: (string | number)[]): Promise<T> {
    return this.script<T>(this.scripts[name], [this.key], args);
  }

  async append(changes: In[]) {
    if (changes.length)
      await this.run(
        "append",
        changes.flatMap((c) => this.codec.encode(c)),
      );
  }

  async lastId() {
    return String(await this.run<string>("last", []));
  }

  protected async read(after: string, count: number) {
    const [first, ...entries] = await this.run<[string | null, ...RawEntry[]]>("since", [after, count]);
    return { first: first ? String(first) : null, changes: entries.map(([id, k, m, s]) => this.codec.decode(id, k, m, s)) };
  }
}

/** The same feed in process memory (development without Redis): the last `length` changes. */
class MemoryFeed<In, C extends Change> extends PollingFeed<In, C> {
  private entries: C[] = [];
  private seq = 0;

  constructor(
    name: string,
    codec: FeedCodec<In, C>,
    private length: number,
  ) {
    super(name, codec);
  }

  async append(changes: In[]) {
    for (const c of changes) this.entries.push(this.codec.decode(`${Date.now()}-${this.seq++}`, ...this.codec.encode(c)));
    if (this.entries.length > this.length) this.entries.splice(0, this.entries.length - this.length);
  }

  async lastId() {
    return this.entries[this.entries.length - 1]?.id ?? "0-0";
  }

  protected async read(after: string, count: number) {
    return { first: this.entries[0]?.id ?? null, changes: this.entries.filter((e) => compareIds(e.id, after) > 0).slice(0, count) };
  }
}

const g = globalThis as unknown as { __changeFeeds?: Map<string, Promise<ChangeFeed<never, Change>>> };

/** The process's feed kept under the Redis key `key` (decided once per key), holding its last `length` changes. */
export function changeFeed<In, C extends Change>(name: string, key: string, length: number, codec: FeedCodec<In, C>): Promise<ChangeFeed<In, C>> {
  const feeds = (g.__changeFeeds ??= new Map());
  let feed = feeds.get(key) as Promise<ChangeFeed<In, C>> | undefined;
  if (!feed) {
    feed = redisBackend().then((b) => (b.kind === "memory" ? new MemoryFeed(name, codec, length) : new RedisFeed(name, codec, scriptRedis(b), key, length)));
    feeds.set(key, feed as unknown as Promise<ChangeFeed<never, Change>>);
  }
  return feed;
}
