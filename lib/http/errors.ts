// Every error the API can answer, in one place: the pipeline maps codes to statuses and the
// OpenAPI document lists them. Domain code throws DomainError; it never builds a Response.

export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: "The request's path, query or body is invalid." },
  UNAUTHORIZED: { status: 401, description: "Missing, malformed, expired or wrongly signed credentials." },
  FORBIDDEN: { status: 403, description: "Authenticated, but not allowed to do this." },
  EARN_KIND_SERVER_AWARDED: { status: 403, description: "This kind of Rep is awarded by the server, never through the earn route." },
  NOT_FOUND: { status: 404, description: "No such resource or path." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this method; see the Allow header." },
  STARRED_TEAMS_LIMIT: { status: 409, description: "Starring one more club would pass the 50-club cap." },
  ALREADY_EARNED: { status: 409, description: "This Rep was already granted (once-only, once per day or once per target)." },
  IDEMPOTENCY_KEY_REUSED: { status: 409, description: "The idempotency key was already used with different parameters." },
  USERNAME_TAKEN: { status: 409, description: "The display handle belongs to another user." },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The request body is larger than this route accepts." },
  RATE_LIMITED: { status: 429, description: "Too many requests; retry after the number of seconds in Retry-After." },
  INTERNAL_ERROR: { status: 500, description: "Unexpected server failure. The body carries no internals; quote the X-Request-Id." },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "DomainError";
    this.status = ERROR_CODES[code].status;
  }
}

export const notFound = (what: string) => new DomainError("NOT_FOUND", `${what} not found.`);
export const validationError = (message: string, details?: ErrorDetail[]) =>
  new DomainError("VALIDATION_ERROR", message, details);
