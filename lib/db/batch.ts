// Batching concurrent calls of one statement (a write, or a read; "group commit" for writes). A process's calls made
// while a batch runs wait and go together in the next one, so N concurrent calls cost one statement (one round trip,
// one commit) instead of N, and an idle server runs a lone call at once, with no added wait.
//
// Use it for a measured hot path (docs/performance.md) whose statement can take arrays (unnest … WITH ORDINALITY)
// and answer one row per item, in item order (inItemOrder): a write that answers another number fails every call.
// - Key a write by the row it updates (keyOf: the user, the session), so a batch changes each row once, in key order.
// - Nothing request-scoped inside: the batch runs outside every request's scope (lib/kernel/request-scope.ts); the
//   caller notes what its own item changed (board moves) after the call returns.
// - No gain where each request has its own instance (a serverless function serving one request at a time): there a
//   batch is always one call. It pays on a long-lived server under concurrency.
// - A new path is batched only with a measured need (bench before and after), never by default.
import { outsideRequests } from "../kernel/request-scope";
import { isDatabaseUnavailable } from "./unavailable";

interface Waiting<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface BatchOptions<I> {
  /**
   * Items with the same key never share a batch (a later one waits for the next), so a batch changes each key's rows
   * once; and a batch reaches `write` in key order, so batches of different processes lock rows in the same order (a
   * deadlock between two would fail both, which are then retried item by item).
   */
  keyOf?: (item: I) => string;
  /** The most items one batch holds. */
  max: number;
}

/**
 * Wraps `write` (one result per item, in order) so that concurrent calls share its statements. A batch that fails
 * is written again item by item, so one bad item fails only its own call; unless the database is unavailable, which
 * fails every call of the batch at once (retrying them one by one would only make the last wait longer).
 */
export function batchConcurrentCalls<I, O>(write: (items: I[]) => Promise<O[]>, { keyOf, max }: BatchOptions<I>): (item: I) => Promise<O> {
  let queue: Waiting<I, O>[] = [];
  let writing = false;

  /** The next batch: the oldest waiting items, one per key, at most `max`; the others keep their turn. */
  function take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    for (const w of queue) {
      const key = keyOf?.(w.item);
      if (batch.length < max && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        batch.push(w);
      } else rest.push(w);
    }
    queue = rest;
    if (keyOf) batch.sort((a, b) => compare(keyOf(a.item), keyOf(b.item)));
    return batch;
  }

  async function settle(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await write(batch.map((w) => w.item));
      // One result per item, in order: a write that answers fewer (or more) broke that contract; no caller may get
      // another's row, or none.
      if (results.length !== batch.length) throw new Error(`a batched write answered ${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) return batch.forEach((w) => w.reject(error));
      for (const w of batch) await settle([w]);
    }
  }

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (queue.length > 0) await settle(take());
    } finally {
      writing = false;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // The batch serves many requests: it runs outside the scope of the one that happened to start it.
      if (!writing) void outsideRequests(drain);
    });
}

/** batchConcurrentCalls for each database client apart (a test's or a script's client never shares the app's batches). */
export function batchConcurrentCallsPerClient<D extends object, I, O>(
  write: (db: D, items: I[]) => Promise<O[]>,
  options: BatchOptions<I>,
): (db: D, item: I) => Promise<O> {
  const perClient = new WeakMap<D, (item: I) => Promise<O>>();
  return (db, item) => {
    let call = perClient.get(db);
    if (!call) perClient.set(db, (call = batchConcurrentCalls((items: I[]) => write(db, items), options)));
    return call(item);
  };
}

/**
 * A batched statement's rows in the order of its `count` items: the row numbered n (WITH ORDINALITY, from 1) is item
 * n's, without its number; undefined where an item has no row.
 */
export function inItemOrder<R extends { n: bigint | number }>(rows: R[], count: number): (Omit<R, "n"> | undefined)[] {
  const ordered: (Omit<R, "n"> | undefined)[] = Array.from({ length: count }, () => undefined);
  for (const { n, ...row } of rows) ordered[Number(n) - 1] = row;
  return ordered;
}
