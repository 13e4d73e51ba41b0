import { AsyncLocalStorage } from "node:async_hooks";

// The request scope the pipeline (lib/http/route.ts) runs each handler in. A module keeps per-request state here
// (requestState) and registers work to run once the handler succeeded, its transactions committed, before the answer
// is sent: the one place a request-scoped effect follows the handler (the leaderboards' board moves today; an outbox
// or push work later). Nothing here knows a domain. Work shared by many requests (a batch of concurrent calls,
// lib/db/batch.ts) runs outside every request scope, so nothing it notes lands in the request that started it.

interface Scope {
  state: Map<symbol, unknown>;
  afterSuccess: (() => Promise<void>)[];
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs `handler` in a new request scope; once it succeeded, runs the work registered in the scope, in order. */
export async function inRequestScope<T>(handler: () => Promise<T>): Promise<T> {
  const scope: Scope = { state: new Map(), afterSuccess: [] };
  const result = await scopes.run(scope, handler);
  for (const work of scope.afterSuccess) await work();
  return result;
}

/**
 * The current request's state under `key`, made on first use by `init`, which may register work to run after the
 * handler's success (`afterSuccess`); undefined outside a request (scripts, crons, a shared batch).
 */
export function requestState<T>(key: symbol, init: (afterSuccess: (work: () => Promise<void>) => void) => T): T | undefined {
  const scope = scopes.getStore();
  if (!scope) return undefined;
  if (!scope.state.has(key))
    scope.state.set(
      key,
      init((work) => scope.afterSuccess.push(work)),
    );
  return scope.state.get(key) as T;
}

/** Runs `fn` outside any request scope (and so do the promises it starts). */
export const outsideRequests = <T>(fn: () => T): T => scopes.exit(fn);
