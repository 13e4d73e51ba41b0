import type { ErrorCode } from "./errors";
import type { RouteConfig } from "./route";

/**
 * The error codes a route documents: its own `errors`, and those its declaration implies (validation of what it
 * parses, its auth mode, body limits, its rate limit, SERVICE_UNAVAILABLE unless it touches no database) plus INTERNAL_ERROR. The OpenAPI document lists exactly these;
 * with VALIDATE_RESPONSES=1 the pipeline logs any other code a route answers ("undocumented error code").
 */
export function documentedErrorCodes(c: RouteConfig<unknown, unknown, unknown, unknown>): ErrorCode[] {
  const codes = new Set<ErrorCode>(c.errors ?? []);
  if (c.params || c.query || c.body) codes.add("VALIDATION_ERROR");
  if (c.auth !== "public") codes.add("UNAUTHORIZED");
  if (c.auth === "admin") codes.add("FORBIDDEN");
  if (c.body || c.auth === "webhook") codes.add("PAYLOAD_TOO_LARGE");
  if (c.rateLimit !== false) codes.add("RATE_LIMITED");
  // Every route reads or writes PostgreSQL (a session resolves its user row) unless it says it never does.
  if (c.database !== false) codes.add("SERVICE_UNAVAILABLE");
  codes.add("INTERNAL_ERROR");
  return [...codes];
}
