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
