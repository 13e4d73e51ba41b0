import { randomBytes } from "node:crypto";
import { verifySessionToken } from "../auth/tokens";
import { resolveUser } from "../auth/users";
import type { Db } from "../db/client";
import { env } from "../env";
import { DomainError } from "../http/errors";
import { limiterFor } from "../http/rate-limit";
import { identityProvider } from "../identity/provider";
import { isAllowedRedirect, mobileProviders, NATIVE_TOKEN_MAX_AGE_SECONDS } from "./config";
import { issueMobileToken } from "./service";
import { NONCE_COOKIE, signState, STATE_TTL_MS, verifyState } from "./state";

// The native sign-in flow: start → (identity provider sign-in in the browser) → callback → exchange → ticket.

/** Identity-provider session cookie set on this app's domain by the sign-in page (Clerk's `__session`). */
export const SESSION_COOKIE = "__session";

export function parseCookies(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) {
      try {
        out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // ignore a malformed cookie value
      }
    }
  }
  return out;
}

const secureCookie = () => (env().APP_URL.startsWith("https:") ? "; Secure" : "");

/**
 * Validates provider and redirect URI (no open redirect), then sends the browser to the provider's sign-in. A PKCE
 * code_challenge (S256, checked by the query schema) rides in the signed state to the callback.
 */
export function startSignIn(provider: string, redirectUri: string, codeChallenge?: string): { location: string; setCookie: string } {
  if (!mobileProviders().includes(provider)) {
    throw new DomainError("VALIDATION_ERROR", `Unknown sign-in provider. Use one of: ${mobileProviders().join(", ")}.`, [
      { path: "query.provider", message: "Not a configured provider" },
    ]);
  }
  if (!isAllowedRedirect(redirectUri)) {
    throw new DomainError("VALIDATION_ERROR", "redirect_uri is not an allowed app redirect URI.", [
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
    throw new DomainError("VALIDATION_ERROR", "The sign-in state is missing, invalid or expired. Start sign-in again.", [
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
    userId = (await resolveUser(await verifySessionToken(sessionToken))).id;
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
    throw new DomainError("VALIDATION_ERROR", "redirect_uri is not an allowed app redirect URI.", [
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
      "UNAUTHORIZED",
      `This route needs a session token issued within the last ${NATIVE_TOKEN_MAX_AGE_SECONDS} s: get a fresh token from the identity provider and call again.`,
    );
  }
}
