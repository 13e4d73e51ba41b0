// Every error the API can answer, in one place: the pipeline maps codes to statuses and the
// OpenAPI document lists them. Domain code throws DomainError; it never builds a Response.

export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: "The request's path, query or body is invalid." },
  URL_NOT_ALLOWED: { status: 400, description: "The image proxy may not fetch this URL (not https, credentials, host not allow-listed, or a private/reserved address)." },
  UNAUTHORIZED: { status: 401, description: "Missing, malformed, expired or wrongly signed credentials." },
  FORBIDDEN: { status: 403, description: "Authenticated, but not allowed to do this." },
  EARN_KIND_SERVER_AWARDED: { status: 403, description: "This kind of Rep is awarded by the server, never through the earn route." },
  NOT_FOUND: { status: 404, description: "No such resource or path." },
  GONE: { status: 410, description: "The route or resource was removed." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this method; see the Allow header." },
  STARRED_TEAMS_LIMIT: { status: 409, description: "Starring one more club would pass the 50-club cap." },
  ALREADY_EARNED: { status: 409, description: "This Rep was already granted (once-only, once per day or once per target)." },
  EARN_CONDITION_NOT_MET: { status: 409, description: "The server does not see what this Rep is for yet (e.g. profile_completed with an incomplete profile, notifications_enabled with every notification setting off)." },
  IDEMPOTENCY_KEY_REUSED: { status: 409, description: "The idempotency key was already used with different parameters." },
  USERNAME_TAKEN: { status: 409, description: "The display handle belongs to another user." },
  FAVORITE_TEAMS_LIMIT: { status: 409, description: "At most 5 favorite teams, not counting official teams." },
  CANNOT_BLOCK_SELF: { status: 400, description: "A user cannot block themselves." },
  INVITE_ALREADY_REDEEMED: { status: 409, description: "This account already redeemed an invite." },
  INVITE_OWN_CODE: { status: 409, description: "An invite code cannot be redeemed by its owner." },
  UGC_TERMS_REQUIRED: { status: 403, description: "Accept the current Terms of Use before posting." },
  TERMS_VERSION_MISMATCH: { status: 409, description: "The Terms of Use version accepted is not the current one." },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The request body is larger than this route accepts." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: "The uploaded file is not an accepted image type (checked from its bytes)." },
  INVALID_IMAGE: { status: 422, description: "The uploaded file could not be decoded as an image (truncated or corrupt)." },
  UPLOAD_QUOTA_EXCEEDED: { status: 429, description: "An upload quota is used up: too many uploads not yet attached to a post, or too many bytes uploaded in the last 24 hours." },
  RATE_LIMITED: { status: 429, description: "Too many requests; retry after the number of seconds in Retry-After." },
  UPSTREAM_ERROR: { status: 502, description: "A remote service answered with an error or unusable content." },
  UPSTREAM_TIMEOUT: { status: 504, description: "A remote service did not answer in time." },
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
