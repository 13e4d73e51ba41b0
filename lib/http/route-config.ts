import type { ZodType } from "zod";
import type { ConsoleArea } from "../auth/roles";
import type { AuthUser } from "../auth/users";
import type { Idempotent, IdempotencyKey } from "../db/idempotency";
import type { ErrorDef } from "../kernel/errors";
import type { WebhookSecretName } from "./machine-auth";
import type { RateLimitPolicy } from "./rate-limit";
import type { Reply } from "./reply";

// What a route declares (route(config, handler), lib/http/route.ts): who may call it, what it parses, what it answers,
// its limits and options. Types and their defaults only; the pipeline that reads them is route.ts.

/**
 * Who may call a route. Sessions: `public` (nobody is identified), `optional` (a session token if sent), `bearer`
 * (a session token), `admin` (a staff session). Machines: `cron` (Authorization: Bearer <CRON_SECRET>) and `webhook`
 * (an HMAC-SHA256 X-Signature over the raw body, keyed with the secret named in `webhook.secret`).
 */
export type AuthMode = "public" | "optional" | "bearer" | "admin" | "cron" | "webhook";
export const AUTH_MODES = ["public", "optional", "bearer", "admin", "cron", "webhook"] as const satisfies readonly AuthMode[];

/**
 * The rate-limit policy of a route that names none, by auth mode. A signed-in caller of an `optional` route counts
 * as `user`. Anonymous callers are keyed by client address, signed-in ones by user, machines by route.
 */
export const DEFAULT_RATE_LIMIT: Record<AuthMode, RateLimitPolicy> = {
  public: "anonymous",
  optional: "anonymous",
  bearer: "user",
  admin: "user",
  cron: "machine",
  webhook: "machine",
};

/** A cacheable success answer: `Cache-Control: <scope>, max-age=<maxAge>[, immutable]` instead of `no-store`. */
export interface CacheOption {
  /** Seconds a cache may reuse the answer. */
  maxAge: number;
  /** `public` (default: shared caches too) or `private` (the client's own cache only). */
  scope?: "public" | "private";
  immutable?: boolean;
}

export const cacheControl = (c: CacheOption) => `${c.scope ?? "public"}, max-age=${c.maxAge}${c.immutable ? ", immutable" : ""}`;

/** A further success answer of a route, reached with reply(data, { status }). */
export interface ResponseSpec {
  description: string;
  /** Schema of `data` (or of the whole body when the route is bare). */
  schema: ZodType;
}

/** A verified webhook delivery: the matching signature (the delivery id) and the raw body it covers. */
export interface WebhookDelivery {
  id: string;
  rawBody: Buffer;
}

/**
 * A provider's own webhook signature (Stripe's `Stripe-Signature`), checked by its library instead of X-Signature.
 * `verify` answers (or resolves to) the delivery id (the provider's event id) or throws a DomainError listed in `errors`.
 */
export interface WebhookVerifier {
  /** The OpenAPI security scheme: its name, the header and what it holds. */
  scheme: { name: string; header: string; description: string };
  errors: ErrorDef[];
  verify(headers: Headers, rawBody: Buffer): string | Promise<string>;
}

/** Auth `webhook`: the env variable keying X-Signature, or a provider's verifier. */
export type WebhookOption = { secret: WebhookSecretName; verifier?: undefined } | { verifier: WebhookVerifier; secret?: undefined };

interface RouteConfigBase<P, Q, B> {
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  /**
   * Auth `admin`: the staff area the route belongs to (lib/auth/roles.ts: a role opens some areas, `admin` every one).
   * A staff session whose role does not open it is 403 FORBIDDEN. Omitted: `admin` (admins only).
   */
  staffArea?: ConsoleArea;
  /**
   * Auth `webhook`: the environment variable holding the HMAC key of X-Signature (unset → every delivery is 401), or
   * a provider's own verifier (Stripe's signature).
   */
  webhook?: WebhookOption;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** A body schema is required unless this is false (then an empty body parses as undefined). */
  bodyRequired?: boolean;
  /**
   * The Idempotency-Key header: `required` (400 without one) or `optional`. The handler gets `idempotency` (the key
   * and the route's scope: method and path template) for lib/db/idempotency.ts and answers its `{ data, replayed }`;
   * a replay is sent with `Idempotent-Replayed: true`.
   */
  idempotency?: IdempotencyOption;
  /** Largest accepted body in bytes (default 16 KiB); for auth `webhook` the limit of the signed raw body. */
  bodyLimit?: number;
  /**
   * A named policy, or false to opt out (say why in a comment). Omitted: the auth mode's default (DEFAULT_RATE_LIMIT).
   */
  rateLimit?: RateLimitPolicy | false;
  /**
   * Callers without a session share answers: for ANONYMOUS_CACHE_TTL_MS a process answers the same path and query
   * with the body it built first (concurrent misses run the handler once). Errors are never shared, signed-in
   * callers never get a shared answer, and the rate limit still applies to every request. For hot public reads
   * whose answer may be a second old (the feed, listings); say so in the route's description.
   */
  anonymousCache?: boolean;
  /** Success answers may be cached (errors never are); default `Cache-Control: no-store`. */
  cache?: CacheOption;
  /**
   * Conditional GET: the answer carries a strong `ETag` (SHA-256 of the exact body bytes) and `Cache-Control:
   * <private|public>, no-cache` (unless `cache` says otherwise), plus `Vary: Authorization` when a session can change
   * it; a request whose `If-None-Match` holds that tag gets `304 Not Modified` without a body. The handler answers
   * plain data; when it answers the same object again (a cached, immutable view) its body and tag are reused, not
   * rebuilt.
   */
  conditional?: boolean;
  /**
   * The feature this operation belongs to, for kill switches: before the handler runs, the registered checker
   * (lib/http/features.ts) is asked whether staff paused it for this caller; paused answers 409 FEATURE_DISABLED
   * naming it (documented automatically). Mark writes only: reads stay available while a feature is paused.
   */
  feature?: string;
  /** `{ success: true, data }` (default) or the bare object the spec names for this route. */
  envelope?: boolean;
  /** Status of the main success answer (default 200). */
  status?: number;
  /** Other success statuses the handler may answer with reply(data, { status }), each validated against its schema. */
  responses?: Record<number, ResponseSpec>;
  /** The errors this route can answer beyond those implied by auth, validation and rate limits (modules' errors.ts). */
  errors?: ErrorDef[];
  /**
   * True: a fully suspended caller may still call it (reading their moderation actions, appealing, their data exports). Every other route
   * answers a suspended caller 403 ACCOUNT_SUSPENDED (checked in authenticate, from the row resolveUser reads).
   */
  allowSuspended?: boolean;
  /** False: the route never touches the database, so it does not document 503 SERVICE_UNAVAILABLE. */
  database?: false;
  /**
   * Marked deprecated in the OpenAPI document, and every answer carries `Deprecation: @<since, epoch seconds>`
   * (RFC 9745) and, when named, `Link: <successor>; rel="successor-version"`.
   */
  deprecated?: { since: string; successor?: string };
  /** Document-only overrides for routes that are not JSON in and out (multipart uploads, images). */
  openapi?: { requestBody?: unknown; successResponses?: Record<string, unknown> };
  /**
   * Which OpenAPI document lists the operation: the internal one (staff, cron, webhooks; GET /api/admin/openapi.json)
   * or the public contract (GET /api/openapi.json). Omitted: internal for auth `admin`, `cron` and `webhook`, public
   * otherwise (isInternal in lib/operations/openapi/document.ts). Set it only to say otherwise, e.g. a provider's webhook that
   * is public contract.
   */
  internal?: boolean;
}

export type RouteConfig<P, Q, B, R> = RouteConfigBase<P, Q, B> &
  (
    | {
        /**
         * Schema of `data` in the envelope, or of the whole body when envelope is false; z.instanceof(Response) for a
         * binary or streaming answer the handler builds itself.
         */
        response: ZodType<R>;
        redirect?: undefined;
      }
    | {
        /** The route answers 302 redirect(location) (described here), never a body. */
        redirect: string;
        response?: undefined;
      }
  );

export type AnyRouteConfig = RouteConfig<unknown, unknown, unknown, unknown>;

export type IdempotencyOption = "required" | "optional";
type IdempotencyOf<I> = I extends "required" ? IdempotencyKey : I extends "optional" ? IdempotencyKey | null : undefined;
/** What a handler answers: with the `idempotency` option, lib/db/idempotency.ts's `{ data, replayed }`. */
export type HandlerResult<R, I> = I extends IdempotencyOption ? Idempotent<R> : R | Reply | Response;

export interface HandlerContext<P, Q, B, A extends AuthMode, I = undefined> {
  params: P;
  query: Q;
  body: B;
  user: A extends "bearer" | "admin" ? AuthUser : AuthUser | null;
  /** Auth `webhook`: the verified delivery. */
  delivery: A extends "webhook" ? WebhookDelivery : undefined;
  /** Route option `idempotency`: the request's Idempotency-Key and scope (null when optional and absent). */
  idempotency: IdempotencyOf<I>;
  req: Request;
  requestId: string;
}

export interface RouteHandler {
  (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }): Promise<Response>;
  config: AnyRouteConfig;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024;
