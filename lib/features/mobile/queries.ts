import type { Db } from "../../db/client";
import { raw } from "../../db/raw";

// The statements on mobile_session_tokens (one-time tokens, stored by their SHA-256). Consuming is one conditional
// UPDATE … RETURNING, so of concurrent exchanges of one token exactly one wins.

export function insertToken(db: Db, data: { tokenHash: string; userId: string; redirectUri: string; codeChallenge: string | null; expiresAt: Date }) {
  return db.mobileSessionToken.create({ data, select: { tokenHash: true } });
}

/** Consumes a live token whose stored code_challenge equals `challenge` (both null for a legacy client); null if none. */
export async function consumeToken(db: Db, tokenHash: string, challenge: string | null) {
  const [row] = await raw(db).$queryRaw<{ externalId: string; consumedAt: Date }[]>`
    UPDATE mobile_session_tokens m SET consumed_at = now()
    FROM users u
    WHERE m.token_hash = ${tokenHash} AND m.consumed_at IS NULL AND m.expires_at > now() AND u.id = m.user_id
      AND m.code_challenge IS NOT DISTINCT FROM ${challenge}::text
    RETURNING u.external_id AS "externalId", m.consumed_at AS "consumedAt"`;
  return row ?? null;
}

export function tokenState(db: Db, tokenHash: string) {
  return db.mobileSessionToken.findUnique({ where: { tokenHash }, select: { codeChallenge: true, consumedAt: true, expiresAt: true } });
}

/** Undoes our consumption (the same consumed_at) while the token is still valid. */
export function releaseToken(db: Db, tokenHash: string, consumedAt: Date) {
  return raw(db).$executeRaw`
    UPDATE mobile_session_tokens SET consumed_at = NULL
    WHERE token_hash = ${tokenHash} AND consumed_at = ${consumedAt} AND expires_at > now()`;
}

/** Deletes up to `batchSize` tokens expired or consumed more than `olderThanSeconds` ago, skipping locked rows. */
export function deleteSpentTokens(db: Db, olderThanSeconds: number, batchSize: number) {
  return raw(db).$executeRaw`
    DELETE FROM mobile_session_tokens WHERE token_hash IN (
      SELECT token_hash FROM mobile_session_tokens
      WHERE expires_at < now() - ${olderThanSeconds}::int * interval '1 second'
         OR consumed_at < now() - ${olderThanSeconds}::int * interval '1 second'
      LIMIT ${batchSize}::int
      FOR UPDATE SKIP LOCKED)`;
}
