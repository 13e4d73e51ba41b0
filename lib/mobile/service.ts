import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { DomainError } from "../http/errors";
import { identityProvider } from "../identity/provider";
import { MOBILE_TOKEN_TTL_SECONDS, SIGN_IN_TICKET_TTL_SECONDS } from "./config";

export const MOBILE_TOKEN_PATTERN = /^[0-9a-fA-F]{128}$/;
const hashToken = (token: string) => createHash("sha256").update(token.toLowerCase()).digest("hex");

/** Mints the one-time mobile session token (64 random bytes as 128 hex characters); only its hash is stored. */
export async function issueMobileToken(db: Db, userId: string, redirectUri: string): Promise<string> {
  const token = randomBytes(64).toString("hex");
  await db.mobileSessionToken.create({
    data: { tokenHash: hashToken(token), userId, redirectUri, expiresAt: new Date(Date.now() + MOBILE_TOKEN_TTL_SECONDS * 1000) },
  });
  return token;
}

/**
 * Redeems a mobile session token for an identity-provider sign-in ticket. The token is consumed by a conditional
 * UPDATE in the same transaction as the provider call: concurrent exchanges of one token wait on its row and
 * exactly one wins; if the provider fails, the transaction rolls back and the token stays redeemable.
 */
export async function exchangeMobileToken(db: Db, token: string): Promise<{ ticket: string; expiresAt: string }> {
  return db.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<{ external_id: string }[]>`
        UPDATE mobile_session_tokens m SET consumed_at = now()
        FROM users u
        WHERE m.token_hash = ${hashToken(token)} AND m.consumed_at IS NULL AND m.expires_at > now() AND u.id = m.user_id
        RETURNING u.external_id`;
      if (rows.length === 0) throw new DomainError("UNAUTHORIZED", "This sign-in token is unknown, expired or already used. Sign in again.");
      const { ticket, expiresAt } = await identityProvider().createSignInTicket(rows[0]!.external_id, SIGN_IN_TICKET_TTL_SECONDS);
      return { ticket, expiresAt: expiresAt.toISOString() };
    },
    { maxWait: 10_000, timeout: 20_000 },
  );
}
