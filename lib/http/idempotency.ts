import { createHash } from "node:crypto";
import type { Db, DbTx } from "../db/client";
import { txOptions } from "../db/tx";
import { DomainError, validationError, sharedErrors } from "./errors";
import { reply, type Reply } from "./reply";

// Idempotency keys of money-moving requests, as Stripe does them: the first successful answer (status and body) is
// stored under the caller's key, in the transaction that moved the money, and a retry with the same key gets it back
// with `Idempotent-Replayed: true`. The same key with another route or other parameters is 409
// IDEMPOTENCY_KEY_REUSED. A refused request (any error) stores nothing, so its key may be used again. Keys expire
// IDEMPOTENCY_TTL_HOURS after their first use; an expired key starts afresh.
//
// Concurrent retries: the key's row is inserted first; a second transaction inserting the same key waits on the
// unique index until the first commits (then it replays) or rolls back (then it runs), so the work runs once.

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_TTL_HOURS = 24;
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** The Idempotency-Key header, or null when it is absent; a malformed one is a 400 naming the header. */
export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key !== null && !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw validationError(`${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters.`, [
      { path: `headers.${IDEMPOTENCY_HEADER.toLowerCase()}`, message: "1..255 visible ASCII characters" },
    ]);
  }
  return key;
}

/** The Idempotency-Key header, required: money-moving creates cannot be retried safely without one. */
export function requireIdempotencyKey(req: Request): string {
  const key = idempotencyKeyOf(req);
  if (key === null) {
    throw validationError(`Send an ${IDEMPOTENCY_HEADER} header of 1 to 255 visible ASCII characters (a UUID, say): a retry with it never moves money twice.`, [
      { path: `headers.${IDEMPOTENCY_HEADER.toLowerCase()}`, message: "required" },
    ]);
  }
  return key;
}

export interface IdempotentRequest {
  userId: string;
  key: string;
  /** The route, e.g. "POST /api/v1/packs/{packId}/purchases": a key belongs to one. */
  route: string;
  /** Everything that defines the request (path values and body): the same key with another is refused. */
  request: unknown;
  /** The status of a first, successful answer. */
  status: number;
}

type Outcome<T> = { kind: "ran"; data: T } | { kind: "replayed"; data: T; status: number } | { kind: "expired" };

/**
 * Runs `work` in a transaction at most once per (user, key) and answers its result, or the stored first result
 * with Idempotent-Replayed: true. `work` must return plain JSON (dates as ISO strings), as it is stored and replayed.
 */
export async function idempotent<T>(db: Db, r: IdempotentRequest, work: (tx: DbTx) => Promise<T>): Promise<Reply<T>> {
  const hash = createHash("sha256").update(JSON.stringify(r.request)).digest("hex");
  for (let attempt = 0; ; attempt++) {
    const outcome = await db.$transaction(async (tx): Promise<Outcome<T>> => {
      const claimed = await tx.$queryRaw<unknown[]>`
        INSERT INTO idempotency_keys (user_id, key, route, request_hash, expires_at)
        VALUES (${r.userId}::uuid, ${r.key}, ${r.route}, ${hash}, now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}))
        ON CONFLICT (user_id, key) DO NOTHING
        RETURNING 1`;
      if (claimed.length > 0) {
        const data = await work(tx);
        await tx.$executeRaw`
          UPDATE idempotency_keys SET status = ${r.status}, response = ${JSON.stringify(data)}::jsonb
          WHERE user_id = ${r.userId}::uuid AND key = ${r.key}`;
        return { kind: "ran", data };
      }
      const [prior] = await tx.$queryRaw<{ route: string; hash: string; status: number; response: T; expired: boolean }[]>`
        SELECT route, request_hash AS hash, status, response, expires_at <= now() AS expired
        FROM idempotency_keys WHERE user_id = ${r.userId}::uuid AND key = ${r.key}`;
      if (!prior || prior.expired) {
        await tx.$executeRaw`DELETE FROM idempotency_keys WHERE user_id = ${r.userId}::uuid AND key = ${r.key} AND expires_at <= now()`;
        return { kind: "expired" };
      }
      if (prior.route !== r.route || prior.hash !== hash) {
        throw new DomainError(
          sharedErrors.IDEMPOTENCY_KEY_REUSED,
          `This ${IDEMPOTENCY_HEADER} was already used ${prior.route === r.route ? "with other parameters" : `for ${prior.route}`}; use a new key for a new request.`,
        );
      }
      return { kind: "replayed", data: prior.response, status: prior.status };
    }, txOptions());
    if (outcome.kind === "ran") return reply(outcome.data, { status: r.status });
    if (outcome.kind === "replayed") return reply(outcome.data, { status: outcome.status, headers: { [REPLAYED_HEADER]: "true" } });
    if (attempt > 0) throw new DomainError(sharedErrors.IDEMPOTENCY_KEY_REUSED, `This ${IDEMPOTENCY_HEADER} is in use by another request; retry.`);
  }
}

/** Deletes keys past their expiry, at most `limit` (the economy's daily cron). */
export async function sweepIdempotencyKeys(db: Db, limit = 5_000): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit})`;
}
