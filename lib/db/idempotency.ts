import { createHash } from "node:crypto";
import { DomainError, sharedErrors } from "../kernel/errors";
import type { Db, DbTx } from "./client";
import { txOptions } from "./tx";

// Idempotency keys of money-moving requests, as Stripe does them: the first successful answer is stored under the
// caller's key, in the transaction that moved the money, and a retry with the same key gets it back (`replayed`). The
// same key with another route or other parameters is 409 IDEMPOTENCY_KEY_REUSED. A refused request (any error) stores
// nothing, so its key may be used again. Keys expire IDEMPOTENCY_TTL_HOURS after their first use; an expired key starts
// afresh. The pipeline reads the key (route option `idempotency`) and answers a replay with `Idempotent-Replayed: true`.
//
// Concurrent retries: the key's row is inserted first; a second transaction inserting the same key waits on the
// unique index until the first commits (then it replays) or rolls back (then it runs), so the work runs once.

export const IDEMPOTENCY_TTL_HOURS = 24;

/** The request header that carries the key, and the response header that marks a replayed answer. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** A request's key and scope, from the pipeline: `scope` is its method and path template ("POST /api/v1/packs/{packId}/purchases"). */
export interface IdempotencyKey {
  key: string;
  scope: string;
}

/** What an idempotent write answers: its data, and whether it is the stored first answer of an earlier request. */
export interface Idempotent<T> {
  data: T;
  replayed: boolean;
}

type Outcome<T> = { kind: "ran"; data: T } | { kind: "replayed"; data: T } | { kind: "expired" };

/**
 * Runs `work` in a transaction at most once per (user, key) and answers its result, or the stored first result
 * (`replayed`). `request` is everything that defines the request (path values and body): the same key with another is
 * refused. `work` must return plain JSON (dates as ISO strings), as it is stored and replayed.
 */
export async function idempotent<T>(db: Db, r: IdempotencyKey & { userId: string; request: unknown }, work: (tx: DbTx) => Promise<T>): Promise<Idempotent<T>> {
  const hash = createHash("sha256").update(JSON.stringify(r.request)).digest("hex");
  for (let attempt = 0; ; attempt++) {
    const outcome = await db.$transaction(async (tx): Promise<Outcome<T>> => {
      const claimed = await tx.$queryRaw<unknown[]>`
        INSERT INTO idempotency_keys (user_id, key, route, request_hash, expires_at)
        VALUES (${r.userId}::uuid, ${r.key}, ${r.scope}, ${hash}, now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}))
        ON CONFLICT (user_id, key) DO NOTHING
        RETURNING 1`;
      if (claimed.length > 0) {
        const data = await work(tx);
        await tx.$executeRaw`
          UPDATE idempotency_keys SET response = ${JSON.stringify(data)}::jsonb WHERE user_id = ${r.userId}::uuid AND key = ${r.key}`;
        return { kind: "ran", data };
      }
      const [prior] = await tx.$queryRaw<{ route: string; hash: string; response: T; expired: boolean }[]>`
        SELECT route, request_hash AS hash, response, expires_at <= now() AS expired
        FROM idempotency_keys WHERE user_id = ${r.userId}::uuid AND key = ${r.key}`;
      if (!prior || prior.expired) {
        await tx.$executeRaw`DELETE FROM idempotency_keys WHERE user_id = ${r.userId}::uuid AND key = ${r.key} AND expires_at <= now()`;
        return { kind: "expired" };
      }
      if (prior.route !== r.scope || prior.hash !== hash) {
        throw new DomainError(
          sharedErrors.IDEMPOTENCY_KEY_REUSED,
          `This ${IDEMPOTENCY_HEADER} was already used ${prior.route === r.scope ? "with other parameters" : `for ${prior.route}`}; use a new key for a new request.`,
        );
      }
      return { kind: "replayed", data: prior.response };
    }, txOptions());
    if (outcome.kind !== "expired") return { data: outcome.data, replayed: outcome.kind === "replayed" };
    if (attempt > 0) throw new DomainError(sharedErrors.IDEMPOTENCY_KEY_REUSED, `This ${IDEMPOTENCY_HEADER} is in use by another request; retry.`);
  }
}

/** Whether the caller's key was used already (a request with it may be a retry to replay, not refuse). */
export async function keyInUse(db: Db | DbTx, userId: string, key: string): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM idempotency_keys WHERE user_id = ${userId}::uuid AND key = ${key}`;
  return rows.length > 0;
}

/** Deletes keys past their expiry, at most `limit` (the economy's daily cron). */
export async function sweepIdempotencyKeys(db: DbTx, limit = 5_000): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit})`;
}
