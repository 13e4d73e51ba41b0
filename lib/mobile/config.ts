import { env } from "../env";

const list = (raw: string) => raw.split(",").map((s) => s.trim()).filter(Boolean);

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
