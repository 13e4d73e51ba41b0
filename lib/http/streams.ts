import { randomUUID } from "node:crypto";
import { env } from "../env";
import { redisBackend, scriptRedis } from "../redis/client";
import { memorySlotStore, redisSlotStore, type SlotAnswer, type SlotStore } from "../redis/stream-slots";
import { clientAddress } from "./client-ip";
import { DomainError, sharedErrors } from "../kernel/errors";
import { log } from "../kernel/log";

// The guard of every live stream (Server-Sent Events and the like): a caller holds at most STREAMS_PER_CALLER open
// streams at once, across instances. A stream takes a slot before it starts (else 429 TOO_MANY_STREAMS with
// Retry-After), refreshes it on each heartbeat and releases it when it ends; the request's abort releases it too, and
// a slot nobody refreshes (its instance crashed) lapses after a few heartbeats. Like the rate limiter it fails open:
// when the store cannot answer within RATE_LIMIT_TIMEOUT_MS the stream opens uncounted (logged).

/** Shortest life of a slot between refreshes, so that a busy event loop or a slow Redis does not lose a live one. */
export const MIN_SLOT_TTL_MS = 5_000;

export interface StreamSlot {
  /** Keeps the slot: call it on every heartbeat. */
  refresh(): void;
  /** Frees the slot (idempotent): call it whenever the stream ends. */
  release(): void;
}

const UNCOUNTED: StreamSlot = { refresh: () => {}, release: () => {} };

/** Whose streams a request counts against: a Bearer session's user, else (a session cookie or nobody) the client address. */
export function streamKey(req: Request, bearerUserId: string | null): string {
  return bearerUserId ? `user:${bearerUserId}` : `ip:${clientAddress(req.headers)}`;
}

// One store per process (on globalThis: every route bundle that opens streams must count in the same one).
const g = globalThis as unknown as { __streamSlots?: Promise<SlotStore> };
function slotStore(): Promise<SlotStore> {
  return (g.__streamSlots ??= redisBackend().then((b) =>
    b.kind === "memory" ? memorySlotStore() : redisSlotStore(scriptRedis(b), `${env().RATE_LIMIT_PREFIX}:streams`),
  ));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const warn = (msg: string) => (error: unknown) => log("warn", { msg, error: String(error) });

/**
 * Takes a stream slot for the caller (`bearerUserId`: the user of a Bearer session, else null) of a stream that
 * beats every `heartbeatMs`; throws 429 TOO_MANY_STREAMS when the caller already holds STREAMS_PER_CALLER.
 */
export async function acquireStreamSlot(req: Request, bearerUserId: string | null, { heartbeatMs }: { heartbeatMs: number }): Promise<StreamSlot> {
  const key = streamKey(req, bearerUserId);
  const id = randomUUID();
  const ttlMs = Math.max(3 * heartbeatMs, MIN_SLOT_TTL_MS);
  const { STREAMS_PER_CALLER: cap, RATE_LIMIT_TIMEOUT_MS: timeoutMs } = env();
  // Refreshes and the release run in the background: a failure only loosens the count (logged), never the stream.
  const onStore = (what: string, op: (store: SlotStore) => Promise<void>) =>
    void slotStore()
      .then(op)
      .catch(warn(`stream slot ${what} failed`));
  const attempt = slotStore().then((store) => store.acquire(key, id, cap, ttlMs, Date.now()));
  let answer: SlotAnswer;
  try {
    answer = await withTimeout(attempt, timeoutMs);
  } catch (error) {
    warn("stream slots unavailable; failing open")(error);
    // A slot the store took after all, late, is given back.
    attempt.then(
      (late) => {
        if (late.acquired) onStore("release", (store) => store.release(key, id));
      },
      () => {},
    );
    return UNCOUNTED;
  }
  if (!answer.acquired) {
    const retryAfter = Math.min(Math.max(1, Math.ceil((answer.freeAt - Date.now()) / 1000)), Math.ceil(ttlMs / 1000));
    throw new DomainError(
      sharedErrors.TOO_MANY_STREAMS,
      `Too many live streams open: at most ${cap} per caller. Close one, or retry in ${retryAfter} s.`,
      undefined,
      {
        "Retry-After": String(retryAfter),
      },
    );
  }
  let released = false;
  const slot: StreamSlot = {
    refresh() {
      if (!released) onStore("refresh", (store) => store.refresh(key, id, ttlMs, Date.now()));
    },
    release() {
      if (released) return;
      released = true;
      req.signal.removeEventListener("abort", slot.release);
      onStore("release", (store) => store.release(key, id));
    },
  };
  req.signal.addEventListener("abort", slot.release);
  if (req.signal.aborted) slot.release();
  return slot;
}
