// A short-lived per-process cache of reads that are the same for every caller (team details, standings). It keeps
// the promise, so concurrent misses fold into one query, and drops a failed read at once. It lives on globalThis:
// Next bundles route handlers and server actions apart, and a sync or archive run from the staff console must clear
// the same cache the API reads.

interface Entry<V> {
  expires: number;
  value: Promise<V>;
}

export interface ProcessCache<V> {
  /** The cached value under `key`, else `load()` (cached for ttlMs()); a ttl of 0 or less never caches. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  clear(): void;
}

export function processCache<V>(name: string, ttlMs: () => number, maxEntries = 1_000): ProcessCache<V> {
  const g = globalThis as unknown as Record<string, Map<string, Entry<V>> | undefined>;
  const entries = (g[name] ??= new Map<string, Entry<V>>());
  return {
    get(key, load) {
      const ttl = ttlMs();
      if (ttl <= 0) return load();
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value;
      if (entries.size >= maxEntries) entries.clear();
      const value = load();
      entries.set(key, { expires: now + ttl, value });
      value.catch(() => entries.delete(key));
      return value;
    },
    clear: () => entries.clear(),
  };
}

export interface KeyedCache<V> {
  /**
   * The values under `keys`: cached ones as they are, the rest read by one `loadMany(missing)` (a key it leaves out
   * has no value, and that is cached too). Concurrent misses of a key fold into one read; a failed read is dropped.
   */
  getMany(keys: Iterable<string>, loadMany: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>>;
  clear(): void;
}

/** processCache for reads of many keys at once (team summaries, teams' next games): the misses in one statement. */
export function keyedCache<V>(name: string, ttlMs: () => number, maxEntries = 10_000): KeyedCache<V> {
  const g = globalThis as unknown as Record<string, Map<string, Entry<V | undefined>> | undefined>;
  const entries = (g[name] ??= new Map<string, Entry<V | undefined>>());
  return {
    async getMany(keys, loadMany) {
      const ttl = ttlMs();
      const now = Date.now();
      const values: [string, Promise<V | undefined>][] = [];
      const missing: string[] = [];
      for (const key of new Set(keys)) {
        const hit = ttl > 0 ? entries.get(key) : undefined;
        if (hit && hit.expires > now) values.push([key, hit.value]);
        else missing.push(key);
      }
      if (missing.length > 0) {
        const loaded = loadMany(missing);
        if (ttl > 0 && entries.size + missing.length > maxEntries) entries.clear();
        for (const key of missing) {
          const value = loaded.then((m) => m.get(key));
          // Handled here, so a failed read rejects once (below), not also as an unhandled rejection per key.
          value.catch(() => entries.get(key)?.value === value && entries.delete(key));
          values.push([key, value]);
          if (ttl > 0) entries.set(key, { expires: now + ttl, value });
        }
      }
      const found = new Map<string, V>();
      for (const [key, value] of values) {
        const v = await value;
        if (v !== undefined) found.set(key, v);
      }
      return found;
    },
    clear: () => entries.clear(),
  };
}
