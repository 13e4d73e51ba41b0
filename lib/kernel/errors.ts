// Errors. A domain module declares its own (lib/<domain>/errors.ts: `export const errors = defineErrors({ CODE:
// { status, description } })`), throws them (`throw new DomainError(questsErrors.NOT_AT_VENUE, message)`) and lists them on
// the routes that can answer them (`errors: [questsErrors.NOT_AT_VENUE]`); the OpenAPI document shows each route's
// list (lib/operations/openapi). This file holds only the codes every route shares. Domain code throws DomainError; it never
// builds a Response.

export interface ErrorSpec {
  status: number;
  description: string;
}

/** An error a route can answer: its code, HTTP status and the description the OpenAPI document shows. */
export interface ErrorDef extends ErrorSpec {
  code: string;
}

/** A module's error catalogue: each spec gets its own key as its code. */
export function defineErrors<const T extends Record<string, ErrorSpec>>(specs: T): { [K in keyof T & string]: T[K] & { code: K } } {
  return Object.fromEntries(Object.entries(specs).map(([code, spec]) => [code, { ...spec, code }])) as never;
}

/** The codes every route may answer (validation, auth, limits, outages), whichever module it belongs to. */
export const sharedErrors = defineErrors({
  VALIDATION_ERROR: { status: 400, description: "The request's path, query or body is invalid." },
  UNAUTHORIZED: { status: 401, description: "Missing, malformed, expired or wrongly signed credentials." },
  FORBIDDEN: { status: 403, description: "Authenticated, but not allowed to do this." },
  ACCOUNT_SUSPENDED: {
    status: 403,
    description:
      "Staff suspended the caller's account (until the time in details): every signed-in call is refused but reading one's moderation actions (GET /api/v1/me/moderation-actions), appealing them, and requesting and reading one's data exports (/api/v1/me/exports).",
  },
  NOT_FOUND: { status: 404, description: "No such resource or path." },
  GONE: { status: 410, description: "The route or resource was removed." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this method; see the Allow header." },
  IDEMPOTENCY_KEY_REUSED: { status: 409, description: "The idempotency key was already used with different parameters." },
  FEATURE_DISABLED: {
    status: 409,
    description:
      "Staff paused the feature this operation belongs to (a kill switch; details name it, GET /api/v1/config lists them): reads stay available, retry later.",
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The request body is larger than this route accepts." },
  RATE_LIMITED: { status: 429, description: "Too many requests; retry after the number of seconds in Retry-After." },
  TOO_MANY_STREAMS: {
    status: 429,
    description:
      "Too many live streams open at once for this caller (a Bearer session's user, else the client address); close one, or retry after the seconds in Retry-After.",
  },
  UPSTREAM_ERROR: { status: 502, description: "A remote service answered with an error or unusable content." },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description:
      "The database is briefly unreachable (a restart, a failover), or the request's transaction lost to concurrent ones on the same data twice (a deadlock); retry after the seconds in Retry-After.",
  },
  UPSTREAM_TIMEOUT: { status: 504, description: "A remote service did not answer in time." },
  INTERNAL_ERROR: { status: 500, description: "Unexpected server failure. The body carries no internals; quote the X-Request-Id." },
});

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(
    error: ErrorDef,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "DomainError";
    this.code = error.code;
    this.status = error.status;
  }
}

export const notFound = (what: string) => new DomainError(sharedErrors.NOT_FOUND, `${what} not found.`);
export const validationError = (message: string, details?: ErrorDetail[]) => new DomainError(sharedErrors.VALIDATION_ERROR, message, details);
