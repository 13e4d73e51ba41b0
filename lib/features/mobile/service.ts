import { createHash, randomBytes } from "node:crypto";
import { parseCookies, SESSION_COOKIE } from "../../auth/cookies";
import { verifySessionToken } from "../../auth/tokens";
import { isSuspended, resolveUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { env } from "../../env";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { limiterFor } from "../../http/rate-limit";
import { identityProvider } from "../../auth/identity-provider";
import {
  IDENTITY_PROVIDER_TIMEOUT_MS,
  isAllowedRedirect,
  MOBILE_TOKEN_PURGE_AFTER_SECONDS,
  MOBILE_TOKEN_TTL_SECONDS,
  mobileProviders,
  NATIVE_TOKEN_MAX_AGE_SECONDS,
  SIGN_IN_TICKET_TTL_SECONDS,
} from "./config";
import { consumeToken, deleteSpentTokens, insertToken, releaseToken, tokenState } from "./queries";
import { NONCE_COOKIE, signState, STATE_TTL_MS, verifyState } from "./state";
import { within } from "../../time";

// The native sign-in flow: start → (identity provider sign-in in the browser) → callback → exchange → ticket.

const secureCookie = () => (env().APP_URL.startsWith("https:") ? "; Secure" : "");

/**
 * Validates provider and redirect URI (no open redirect), then sends the browser to the provider's sign-in. A PKCE
 * code_challenge (S256, checked by the query schema) rides in the signed state to the callback.
 */
export function startSignIn(provider: string, redirectUri: string, codeChallenge?: string): { location: string; setCookie: string } {
  if (!mobileProviders().includes(provider)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `Unknown sign-in provider. Use one of: ${mobileProviders().join(", ")}.`, [
      { path: "query.provider", message: "Not a configured provider" },
    ]);
  }
  if (!isAllowedRedirect(redirectUri)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "redirect_uri is not an allowed app redirect URI.", [
      { path: "query.redirect_uri", message: "Not in the allow-list" },
    ]);
  }
  const nonce = randomBytes(16).toString("base64url");
  const state = signState({ provider, redirectUri, nonce, ...(codeChallenge ? { codeChallenge } : {}) });
  const callback = new URL("/api/mobile/callback", env().APP_URL);
  callback.searchParams.set("state", state);
  return {
    location: identityProvider().signInUrl(provider, callback.toString()),
    setCookie: `${NONCE_COOKIE}=${nonce}; Path=/api/mobile; Max-Age=${STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secureCookie()}`,
  };
}

export const clearNonceCookie = () => `${NONCE_COOKIE}=; Path=/api/mobile; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie()}`;

/**
 * Finishes the browser leg. A state that is missing, forged or expired cannot name a trusted redirect, so it is a
 * 400; every later failure returns the app's redirect URI with `#error=…`, success with `#token=…` (a fragment,
 * so the token never reaches a server log or Referer). Tokens minted per user are rate-limited (policy
 * `mobileCallback`): past the limit the app gets `#error=rate_limited` and no token is minted.
 */
export async function completeSignIn(
  db: Db,
  input: { state?: string; error?: string; cookieHeader: string | null; authorization: string | null },
): Promise<string> {
  const state = verifyState(input.state);
  if (!state || !isAllowedRedirect(state.redirectUri)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The sign-in state is missing, invalid or expired. Start sign-in again.", [
      { path: "query.state", message: "Invalid or expired state" },
    ]);
  }
  const back = (fragment: string) => `${state.redirectUri}#${fragment}`;
  if (input.error) return back(`error=${encodeURIComponent(input.error.replace(/[^\w.-]/g, "_"))}`);

  const cookies = parseCookies(input.cookieHeader);
  if (cookies[NONCE_COOKIE] !== state.nonce) return back("error=state_mismatch");

  const bearer = /^Bearer\s+(\S+)$/i.exec(input.authorization ?? "")?.[1];
  const sessionToken = cookies[SESSION_COOKIE] ?? bearer;
  if (!sessionToken) return back("error=not_signed_in");
  let userId: string;
  try {
    const user = await resolveUser(await verifySessionToken(sessionToken));
    if (isSuspended(user)) return back("error=account_suspended");
    userId = user.id;
  } catch (error) {
    if (error instanceof DomainError) return back("error=not_signed_in");
    throw error;
  }
  if (!(await limiterFor("mobileCallback")(`u:${userId}`)).allowed) return back("error=rate_limited");
  try {
    return back(`token=${await issueMobileToken(db, userId, state.redirectUri, state.codeChallenge ?? null)}`);
  } catch {
    return back("error=server_error");
  }
}

/**
 * Wallet linking returns through here: only to an allow-listed app URI, carrying the address or an error, and always
 * the app's own `state` (checked by the query schema: 16–256 characters of [A-Za-z0-9._~-], so it needs no escaping),
 * which the app compares with the one it created to drop a link it did not start.
 */
export function walletCallbackTarget(redirectUri: string, state: string, address?: string, error?: string): string {
  if (!isAllowedRedirect(redirectUri)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "redirect_uri is not an allowed app redirect URI.", [
      { path: "query.redirect_uri", message: "Not in the allow-list" },
    ]);
  }
  const back = (fragment: string) => `${redirectUri}#${fragment}&state=${state}`;
  if (error) return back(`error=${encodeURIComponent(error.replace(/[^\w.-]/g, "_"))}`);
  if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address)) return back("error=invalid_address");
  return back(`wallet=${address}`);
}

/**
 * Legacy /api/auth/native-token turns a session into a sign-in ticket, i.e. a new, independent session. So a leaked
 * session token must not be enough: the caller's token must have been issued (`iat`) at most
 * NATIVE_TOKEN_MAX_AGE_SECONDS ago (plus the configured clock skew).
 */
export function assertFreshSession(issuedAt: Date | null, now = Date.now()): void {
  const maxAgeMs = NATIVE_TOKEN_MAX_AGE_SECONDS * 1000 + env().CLERK_CLOCK_SKEW_MS;
  if (!issuedAt || now - issuedAt.getTime() > maxAgeMs) {
    throw new DomainError(
      sharedErrors.UNAUTHORIZED,
      `This route needs a session token issued within the last ${NATIVE_TOKEN_MAX_AGE_SECONDS} s: get a fresh token from the identity provider and call again.`,
    );
  }
}

// The one-time mobile session token --------------------------------------------------------------------------------

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
  await insertToken(db, { tokenHash: hashToken(token), userId, redirectUri, codeChallenge, expiresAt: new Date(Date.now() + MOBILE_TOKEN_TTL_SECONDS * 1000) });
  return token;
}

/**
 * A sign-in ticket from the identity provider, within IDENTITY_PROVIDER_TIMEOUT_MS. A provider error is
 * 502 UPSTREAM_ERROR; no answer in time is 504 UPSTREAM_TIMEOUT (a late answer is dropped: the ticket is never handed
 * out). Never call this inside a database transaction.
 */
export async function issueSignInTicket(externalId: string, timeoutMs = IDENTITY_PROVIDER_TIMEOUT_MS): Promise<{ ticket: string; expiresAt: string }> {
  const call = identityProvider().createSignInTicket(externalId, SIGN_IN_TICKET_TTL_SECONDS);
  try {
    const { ticket, expiresAt } = await within(
      call,
      timeoutMs,
      () => new DomainError(sharedErrors.UPSTREAM_TIMEOUT, `The identity provider did not answer within ${timeoutMs / 1000} s. Try again.`),
    );
    return { ticket, expiresAt: expiresAt.toISOString() };
  } catch (error) {
    if (error instanceof DomainError) {
      log("warn", { msg: "identity provider timed out", call: "createSignInTicket", timeoutMs });
      throw error;
    }
    log("warn", { msg: "identity provider failed", call: "createSignInTicket", error: error instanceof Error ? error.message : String(error) });
    throw new DomainError(sharedErrors.UPSTREAM_ERROR, "The identity provider could not issue a sign-in ticket. Try again.");
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
  const consumed = await consumeToken(db, tokenHash, challenge);
  if (!consumed) throw await refusal(db, tokenHash, challenge);
  const { externalId, consumedAt } = consumed;
  try {
    return await issueSignInTicket(externalId);
  } catch (error) {
    await giveBack(db, tokenHash, consumedAt);
    throw error;
  }
}

/** Why a token did not redeem: a live token whose PKCE check failed says so; anything else is one generic 401. */
async function refusal(db: Db, tokenHash: string, challenge: string | null): Promise<DomainError> {
  const row = await tokenState(db, tokenHash);
  if (row && !row.consumedAt && row.expiresAt.getTime() > Date.now()) {
    if (row.codeChallenge && !challenge) return new DomainError(sharedErrors.UNAUTHORIZED, "This sign-in token was started with PKCE: send its code_verifier.");
    if (row.codeChallenge) return new DomainError(sharedErrors.UNAUTHORIZED, "The code_verifier does not match the code_challenge this sign-in started with.");
    if (challenge)
      return new DomainError(
        sharedErrors.UNAUTHORIZED,
        "This sign-in was started without a code_challenge: a code_verifier cannot be checked. Sign in again with PKCE.",
      );
  }
  return new DomainError(sharedErrors.UNAUTHORIZED, "This sign-in token is unknown, expired or already used. Sign in again.");
}

/** Makes a consumed token redeemable again after the provider failed: only our consumption, only while it is valid. */
async function giveBack(db: Db, tokenHash: string, consumedAt: Date): Promise<void> {
  try {
    await releaseToken(db, tokenHash, consumedAt);
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
  {
    olderThanSeconds = MOBILE_TOKEN_PURGE_AFTER_SECONDS,
    batchSize = 1000,
    maxBatches = 20,
  }: { olderThanSeconds?: number; batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteSpentTokens(db, olderThanSeconds, batchSize);
    deleted += n;
    if (n < batchSize) break;
  }
  return deleted;
}
