import { errors as comments } from "../comments/errors";
import { errors as economy } from "../economy/errors";
import { errors as dashboard } from "../dashboard/errors";
import { errors as games } from "../games/errors";
import { errors as invites } from "../invites/errors";
import { errors as leaderboard } from "../leaderboard/errors";
import { errors as binders } from "../binders/errors";
import { errors as collectibles } from "../collectibles/errors";
import { errors as leagues } from "../leagues/errors";
import { errors as lockerroom } from "../lockerroom/errors";
import { errors as marketplace } from "../marketplace/errors";
import { errors as mobile } from "../mobile/errors";
import { errors as moderation } from "../moderation/errors";
import { errors as notifications } from "../notifications/errors";
import { errors as platform } from "../platform/errors";
import { errors as packs } from "../packs/errors";
import { errors as polls } from "../polls/errors";
import { errors as quests } from "../quests/errors";
import { errors as reactions } from "../reactions/errors";
import { errors as rep } from "../rep/errors";
import { errors as rewards } from "../rewards/errors";
import { errors as signals } from "../signals/errors";
import { errors as stars } from "../stars/errors";
import { errors as support } from "../support/errors";
import { errors as sync } from "../sync/errors";
import { errors as teams } from "../teams/errors";
import { errors as uploads } from "../uploads/errors";
import { errors as users } from "../users/errors";
import { errors as wallets } from "../wallets/errors";

// Every error the API can answer, in one catalogue: the codes every route shares, then each domain module's own
// (lib/<domain>/errors.ts). The pipeline maps codes to statuses and the OpenAPI document lists them. Domain code
// throws DomainError; it never builds a Response.

const SHARED = {
  VALIDATION_ERROR: { status: 400, description: "The request's path, query or body is invalid." },
  UNAUTHORIZED: { status: 401, description: "Missing, malformed, expired or wrongly signed credentials." },
  FORBIDDEN: { status: 403, description: "Authenticated, but not allowed to do this." },
  NOT_FOUND: { status: 404, description: "No such resource or path." },
  GONE: { status: 410, description: "The route or resource was removed." },
  METHOD_NOT_ALLOWED: { status: 405, description: "The path exists but not with this method; see the Allow header." },
  IDEMPOTENCY_KEY_REUSED: { status: 409, description: "The idempotency key was already used with different parameters." },
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
    description: "The database is briefly unreachable (a restart, a failover); retry after the seconds in Retry-After.",
  },
  UPSTREAM_TIMEOUT: { status: 504, description: "A remote service did not answer in time." },
  INTERNAL_ERROR: { status: 500, description: "Unexpected server failure. The body carries no internals; quote the X-Request-Id." },
} as const;

export const ERROR_CODES = {
  ...SHARED,
  ...platform,
  ...users,
  ...teams,
  ...stars,
  ...rep,
  ...lockerroom,
  ...comments,
  ...reactions,
  ...polls,
  ...moderation,
  ...wallets,
  ...packs,
  ...collectibles,
  ...marketplace,
  ...binders,
  ...mobile,
  ...invites,
  ...support,
  ...leagues,
  ...sync,
  ...uploads,
  ...quests,
  ...economy,
  ...games,
  ...dashboard,
  ...rewards,
  ...leaderboard,
  ...signals,
  ...notifications,
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
export const validationError = (message: string, details?: ErrorDetail[]) => new DomainError("VALIDATION_ERROR", message, details);
