import { env } from "../../env";

const list = (raw: string) =>
  raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export const mobileProviders = () => list(env().MOBILE_OAUTH_PROVIDERS);
/** Exact-match allow-list: no prefixes or patterns, so no open redirect. */
export const isAllowedRedirect = (uri: string) => list(env().MOBILE_REDIRECT_URIS).includes(uri);

/** The one-time mobile session token lives this long between callback and exchange. */
export const MOBILE_TOKEN_TTL_SECONDS = 5 * 60;
/** Lifetime of the sign-in ticket handed to the app. */
export const SIGN_IN_TICKET_TTL_SECONDS = 10 * 60;
/** How long a sign-in ticket call to the identity provider may take before the exchange answers 504. */
export const IDENTITY_PROVIDER_TIMEOUT_MS = 5_000;
/** The purge cron deletes tokens that expired or were consumed longer ago than this. */
export const MOBILE_TOKEN_PURGE_AFTER_SECONDS = 10 * 60;
/** Legacy /api/auth/native-token: the caller's session token must have been issued at most this long ago. */
export const NATIVE_TOKEN_MAX_AGE_SECONDS = 60;

/** PKCE (RFC 7636 §4.2): S256 code_challenge, base64url of a SHA-256 digest without padding. */
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** PKCE (RFC 7636 §4.1): code_verifier, 43–128 unreserved characters. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
/** Wallet linking: the app's opaque state, echoed back in the fragment. */
export const WALLET_STATE_PATTERN = /^[A-Za-z0-9._~-]{16,256}$/;
