import { env } from "../env";
import { RATE_LIMIT_HEADER_NAMES } from "./rate-limit";

// CORS for browser clients on other origins: exact origins from CORS_ALLOWED_ORIGINS (none by default). An allowed
// origin gets Access-Control-Allow-Origin (its own value, never "*") and may read the request id and the rate-limit
// headers; any other origin gets no CORS headers at all, so the browser keeps the answer from the page.
// Bearer tokens travel in Authorization, never in cookies, so credentials mode is not enabled.

/** Request headers a cross-origin client may send (preflight Access-Control-Allow-Headers). */
export const CORS_ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id"] as const;
/** Response headers a cross-origin client may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = ["X-Request-Id", ...RATE_LIMIT_HEADER_NAMES, "Retry-After", "Deprecation", "Link"] as const;
/** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600;

let origins: ReadonlySet<string> | undefined;
export function corsOrigins(): ReadonlySet<string> {
  return (origins ??= new Set(
    env()
      .CORS_ALLOWED_ORIGINS.split(",")
      .map((o) => o.trim().toLowerCase())
      .filter(Boolean),
  ));
}

/** The request's Origin when it is allowed, else null. */
export function allowedOrigin(req: Request): string | null {
  const allowed = corsOrigins();
  if (!allowed.size) return null;
  const origin = req.headers.get("origin");
  return origin && allowed.has(origin) ? origin : null;
}

/**
 * CORS headers of an actual (non-preflight) answer. With origins configured every answer says `Vary: Origin`, since
 * it differs by Origin (and shared caches must not hand one origin's answer to another).
 */
export function corsHeaders(req: Request): Record<string, string> {
  if (!corsOrigins().size) return {};
  const origin = allowedOrigin(req);
  if (!origin) return { Vary: "Origin" };
  return { Vary: "Origin", "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS.join(", ") };
}

/** A CORS preflight: OPTIONS naming the method it asks for. */
export const isPreflight = (req: Request) => req.method === "OPTIONS" && req.headers.has("origin") && req.headers.has("access-control-request-method");

/** Headers of a preflight answer for a path whose methods are `methods`; only Vary for an origin not allowed. */
export function preflightHeaders(req: Request, methods: string): Record<string, string> {
  if (!corsOrigins().size) return {};
  const origin = allowedOrigin(req);
  if (!origin) return { Vary: "Origin" };
  return {
    Vary: "Origin",
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS.join(", "),
    "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
  };
}
