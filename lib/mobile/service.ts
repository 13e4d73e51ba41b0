import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { DomainError } from "../http/errors";
import { log } from "../http/log";
import { identityProvider } from "../identity/provider";
import { IDENTITY_PROVIDER_TIMEOUT_MS, MOBILE_TOKEN_PURGE_AFTER_SECONDS, MOBILE_TOKEN_TTL_SECONDS, SIGN_IN_TICKET_TTL_SECONDS } from "./config";

export const MOBILE_TOKEN_PATTERN = /^[0-9a-fA-F]{128}$/;
const hashToken = (token: string) => createHash("sha256").update(token.toLowerCase()).digest("hex");

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA-256(ASCII(code_verifier))), without padding. */
export const s256 = (codeVerifier: string) => createHash("sha256").update(codeVerifier, "ascii").digest("base64url");

/**
 * Mints the one-time mobile session token (64 random bytes as 128 hex characters); only its hash is stored, with
 * the PKCE code_challenge the sign-in started with (null for a legacy client that sent none).
 */
export async function issueMobileToken(db: Db, userId: string, redirectUri: string, codeChallenge: string | null = null): Promise<string> {
  const token = randomBytes(64).toString("hex");
  await db.mobileSessionToken.create({
    data: { tokenHash: hashToken(token), userId, redirectUri, codeChallenge, expiresAt: new Date(Date.now() + MOBILE_TOKEN_TTL_SECONDS * 1000) },
  });
  return token;
}

/**
 * A sign-in ticket from the identity provider, within IDENTITY_PROVIDER_TIMEOUT_MS. A provider error is
 * 502 UPSTREAM_ERROR; no answer in time is 504 UPSTREAM_TIMEOUT (a late answer is dropped: the ticket is never handed
 * out). Never call this inside a database transaction.
 */
export async function issueSignInTicket(externalId: string, timeoutMs = IDENTITY_PROVIDER_TIMEOUT_MS): Promise<{ ticket: string; expiresAt: string }> {
  const call = identityProvider().createSignInTicket(externalId, SIGN_IN_TICKET_TTL_SECONDS);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DomainError("UPSTREAM_TIMEOUT", `The identity provider did not answer within ${timeoutMs / 1000} s. Try again.`)),
      timeoutMs,
    );
  });
  try {
    const { ticket, expiresAt } = await Promise.race([call, deadline]);
    return { ticket, expiresAt: expiresAt.toISOString() };
  } catch (error) {
    if (error instanceof DomainError) {
      log("warn", { msg: "identity provider timed out", call: "createSignInTicket", timeoutMs });
      throw error;
    }
    log("warn", { msg: "identity provider failed", call: "createSignInTicket", error: error instanceof Error ? error.message : String(error) });
    throw new DomainError("UPSTREAM_ERROR", "The identity provider could not issue a sign-in ticket. Try again.");
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Redeems a mobile session token for an identity-provider sign-in ticket.
 *
 * The token is consumed by one conditional UPDATE … RETURNING, outside any transaction: of concurrent exchanges of
 * one token exactly one matches (the others find `consumed_at` set once the winner commits), and no connection or row
 * lock is held while the provider is called. When the token was minted with a PKCE code_challenge, the same WHERE
 * clause requires S256(code_verifier) to equal it, so a missing or wrong verifier consumes nothing; a token minted
 * without one (legacy client) refuses a verifier, so PKCE cannot be silently dropped. If the provider then fails or
 * times out, the token is given back (consumed_at reset, only if it is still our consumption and not expired).
 */
export async function exchangeMobileToken(db: Db, token: string, codeVerifier?: string): Promise<{ ticket: string; expiresAt: string }> {
  const tokenHash = hashToken(token);
  const challenge = codeVerifier === undefined ? null : s256(codeVerifier);
  const rows = await db.$queryRaw<{ external_id: string; consumed_at: Date }[]>`
    UPDATE mobile_session_tokens m SET consumed_at = now()
    FROM users u
    WHERE m.token_hash = ${tokenHash} AND m.consumed_at IS NULL AND m.expires_at > now() AND u.id = m.user_id
      AND m.code_challenge IS NOT DISTINCT FROM ${challenge}::text
    RETURNING u.external_id, m.consumed_at`;
  if (rows.length === 0) throw await refusal(db, tokenHash, challenge);
  const { external_id: externalId, consumed_at: consumedAt } = rows[0]!;
  try {
    return await issueSignInTicket(externalId);
  } catch (error) {
    await giveBack(db, tokenHash, consumedAt);
    throw error;
  }
}

/** Why a token did not redeem: a live token whose PKCE check failed says so; anything else is one generic 401. */
async function refusal(db: Db, tokenHash: string, challenge: string | null): Promise<DomainError> {
  const row = await db.mobileSessionToken.findUnique({ where: { tokenHash }, select: { codeChallenge: true, consumedAt: true, expiresAt: true } });
  if (row && !row.consumedAt && row.expiresAt.getTime() > Date.now()) {
    if (row.codeChallenge && !challenge) return new DomainError("UNAUTHORIZED", "This sign-in token was started with PKCE: send its code_verifier.");
    if (row.codeChallenge) return new DomainError("UNAUTHORIZED", "The code_verifier does not match the code_challenge this sign-in started with.");
    if (challenge) return new DomainError("UNAUTHORIZED", "This sign-in was started without a code_challenge: a code_verifier cannot be checked. Sign in again with PKCE.");
  }
  return new DomainError("UNAUTHORIZED", "This sign-in token is unknown, expired or already used. Sign in again.");
}

/** Makes a consumed token redeemable again after the provider failed: only our consumption, only while it is valid. */
async function giveBack(db: Db, tokenHash: string, consumedAt: Date): Promise<void> {
  try {
    await db.$executeRaw`
      UPDATE mobile_session_tokens SET consumed_at = NULL
      WHERE token_hash = ${tokenHash} AND consumed_at = ${consumedAt} AND expires_at > now()`;
  } catch (error) {
    // The provider's error is the answer; the token simply stays spent.
    log("warn", { msg: "could not give a mobile session token back", error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Deletes mobile session tokens that expired or were consumed more than `olderThanSeconds` ago, `batchSize` rows per
 * statement and at most `maxBatches` statements per call (the next run continues); rows being exchanged right now
 * are skipped. Answers how many rows it deleted.
 */
export async function purgeMobileTokens(
  db: Db,
  { olderThanSeconds = MOBILE_TOKEN_PURGE_AFTER_SECONDS, batchSize = 1000, maxBatches = 20 }: { olderThanSeconds?: number; batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await db.$executeRaw`
      DELETE FROM mobile_session_tokens WHERE token_hash IN (
        SELECT token_hash FROM mobile_session_tokens
        WHERE expires_at < now() - ${olderThanSeconds}::int * interval '1 second'
           OR consumed_at < now() - ${olderThanSeconds}::int * interval '1 second'
        LIMIT ${batchSize}::int
        FOR UPDATE SKIP LOCKED)`;
    deleted += n;
    if (n < batchSize) break;
  }
  return deleted;
}
