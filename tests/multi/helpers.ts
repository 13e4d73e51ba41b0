import { inject } from "vitest";
import { api, type Res } from "../helpers";

// The multi tier's harness: the instances started by tests/multi/setup.ts (same build, one database, one Redis
// prefix, one key pair) and ways to spread requests over them. Everything in tests/helpers.ts works here too:
// db() is this tier's database, token()/newUser() sign for both instances, api() goes to the first instance.

export { api, db, errorOf, newUser, token, userIdOf, type Res } from "../helpers";
export { PUBLIC_LIMIT, TEAM_CACHE_TTL_MS, USER_CACHE_TTL_MS } from "./config";

/** Every instance's base URL, in start order (at least two). */
export const baseUrls: readonly string[] = inject("baseUrls");

type Options = NonNullable<Parameters<typeof api>[2]>;

/** One instance: `on(1).api("GET", path)` asks the second. */
export function on(instance: number) {
  const base = baseUrls[instance];
  if (!base) throw new Error(`No instance ${instance}: this tier runs ${baseUrls.length}`);
  return {
    base,
    api: <T = any>(method: string, path: string, opts: Omit<Options, "base"> = {}) => api<T>(method, path, { ...opts, base }),
  };
}

/** The instance the i-th request of a round-robin goes to. */
export const instanceOf = (i: number) => i % baseUrls.length;

export interface Spread<T> extends Res<T> {
  /** Which instance answered (index into baseUrls). */
  instance: number;
}

/**
 * `n` requests sent all at once, round-robin over the instances (request i to instance i % N), answers in request
 * order; `request(i)` names the call. What the concurrency rules must survive: the racers on different processes
 * with different connection pools and caches.
 */
export function concurrently<T = any>(n: number, request: (i: number) => { method: string; path: string } & Omit<Options, "base">) {
  return Promise.all(
    Array.from({ length: n }, async (_, i): Promise<Spread<T>> => {
      const { method, path, ...opts } = request(i);
      return { ...(await on(instanceOf(i)).api<T>(method, path, opts)), instance: instanceOf(i) };
    }),
  );
}

/** Like `concurrently`, but one request after the other (request i to instance i % N): A, B, A, B, … */
export async function alternately<T = any>(n: number, request: (i: number) => { method: string; path: string } & Omit<Options, "base">) {
  const out: Spread<T>[] = [];
  for (let i = 0; i < n; i++) {
    const { method, path, ...opts } = request(i);
    out.push({ ...(await on(instanceOf(i)).api<T>(method, path, opts)), instance: instanceOf(i) });
  }
  return out;
}
