import { createHash } from "node:crypto";
import type { ZodType } from "zod";
import { mayOpen, type ConsoleArea } from "../auth/roles";
import { verifySessionToken, type Identity } from "../auth/tokens";
import { isSuspended, resolveUser, type AuthUser } from "../auth/users";
import { processCache } from "../db/cache";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "../db/unavailable";
import { isTransactionConflict } from "../db/tx";
import { env } from "../env";
import { inRequestScope } from "../kernel/request-scope";
import { parseJsonBytes, readJsonBody, readLimitedBody, UNSET_BODY } from "./body";
import { clientAddress } from "./client-ip";
import { API_SECURITY_HEADERS, errorBody, requestIdFrom } from "./bare";
import { corsHeaders } from "./cors";
import { DomainError, type ErrorDef, sharedErrors } from "../kernel/errors";
import { log } from "../kernel/log";
import { verifyCron, verifySignature, webhookSecret, type WebhookSecretName } from "./machine-auth";
import { limiterFor, rateLimitHeaders, type RateLimitPolicy, type RateLimitResult } from "./rate-limit";
import { reply, Reply, serializeCookie } from "./reply";
import { idempotencyKeyOf, pathTemplate, requireIdempotencyKey } from "./idempotency";
import { REPLAYED_HEADER, type Idempotent, type IdempotencyKey } from "../db/idempotency";
import { documentedErrors } from "./route-errors";
import { featureCheck } from "./features";
import { parse, queryObject } from "./input";
import { recordCronRun } from "./cron-runs";

export { issuesToDetails, MAX_INPUT_DEPTH, parse } from "./input";
export { API_SECURITY_HEADERS, errorBody } from "./bare";

// The one request pipeline: auth → rate limit → parse & validate → handler → serialize → errors.

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
   * otherwise (isInternal in lib/openapi/document.ts). Set it only to say otherwise, e.g. a provider's webhook that
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

type AnyRouteConfig = RouteConfig<unknown, unknown, unknown, unknown>;

export type IdempotencyOption = "required" | "optional";
type IdempotencyOf<I> = I extends "required" ? IdempotencyKey : I extends "optional" ? IdempotencyKey | null : undefined;
/** What a handler answers: with the `idempotency` option, lib/db/idempotency.ts's `{ data, replayed }`. */
type HandlerResult<R, I> = I extends IdempotencyOption ? Idempotent<R> : R | Reply | Response;

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

const validateResponses = process.env.VALIDATE_RESPONSES === "1";

/** A success answer as anonymous callers share it: built (and validated) once, sent with each request's own headers. */
interface SharedAnswer {
  status: number;
  body: string;
  headers: [string, string][];
}
const anonymousAnswers = processCache<SharedAnswer>("__anonymousAnswers", () => env().ANONYMOUS_CACHE_TTL_MS);

async function shareable(c: AnyRouteConfig, result: unknown): Promise<SharedAnswer> {
  const single = result instanceof Reply && (result.location !== undefined || result.init.cookies?.length);
  if (result instanceof Response || single) throw new Error(`Route "${c.summary}" shares anonymous answers but answered a redirect, cookie or Response`);
  const response = successResponse(c, result, {});
  return { status: response.status, body: await response.text(), headers: [...response.headers] };
}

export function route<
  P = undefined,
  Q = undefined,
  B = undefined,
  R = unknown,
  A extends AuthMode = AuthMode,
  I extends IdempotencyOption | undefined = undefined,
>(
  config: RouteConfig<P, Q, B, R> & { auth: A; idempotency?: I } & (A extends "webhook" ? { webhook: WebhookOption } : unknown),
  handler: (ctx: HandlerContext<P, Q, B, A, I>) => Promise<HandlerResult<R, I>>,
): RouteHandler {
  const c = config as AnyRouteConfig;
  if (c.auth === "webhook" && !c.webhook) throw new Error(`Route "${c.summary}": auth "webhook" needs webhook.secret or webhook.verifier`);
  const documented = new Set(documentedErrors(c).map((e) => e.code));
  const deprecation = deprecationHeaders(c);
  const serialized = new WeakMap<object, SerializedAnswer>();
  const run = async (req: Request, nextCtx: { params: Promise<Record<string, string | string[]>> }) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let status = 500;
    let rate: RateLimitResult | undefined;
    let cronRun: { started: Date; error?: string } | undefined;
    try {
      const { user, delivery } = await authenticate(req, c);
      if (c.auth === "cron") cronRun = { started: new Date() };
      const policy = c.rateLimit === false ? null : (c.rateLimit ?? (user ? "user" : DEFAULT_RATE_LIMIT[c.auth]));
      if (policy) {
        rate = await limiterFor(policy)(rateLimitKey(req, c.auth, user));
        if (!rate.allowed) {
          const retryAfter = Math.max(1, Math.ceil((rate.reset - Date.now()) / 1000));
          throw new DomainError(sharedErrors.RATE_LIMITED, `Too many requests. Retry in ${retryAfter} s.`, undefined, {
            "Retry-After": String(retryAfter),
          });
        }
      }
      if (c.feature) {
        const paused = await featureCheck()(c.feature, user);
        if (paused !== null) throw new DomainError(sharedErrors.FEATURE_DISABLED, paused, [{ path: "feature", message: c.feature }]);
      }
      const params = c.params ? parse(c.params as ZodType<P>, await nextCtx.params, "params") : (undefined as P);
      const query = c.query ? parse(c.query as ZodType<Q>, queryObject(req), "query") : (undefined as Q);
      let body = undefined as B;
      if (c.body) {
        const required = c.bodyRequired !== false;
        const raw = delivery ? parseJsonBytes(delivery.rawBody, required, null) : await readJsonBody(req, c.bodyLimit ?? DEFAULT_BODY_LIMIT, required);
        body = raw === UNSET_BODY ? (undefined as B) : parse(c.body as ZodType<B>, raw, "body");
      }
      if (c.anonymousCache && !user) {
        const url = new URL(req.url);
        const load = async () =>
          shareable(
            c,
            await handler({ params, query, body, user: null as never, delivery: undefined as never, idempotency: undefined as never, req, requestId }),
          );
        const answer = await anonymousAnswers.get(`${req.method} ${url.pathname}${url.search}`, load);
        const headers = new Headers({ ...baseHeaders(requestId, req, rate), ...deprecation });
        for (const [k, v] of answer.headers) headers.set(k, v);
        status = answer.status;
        return new Response(answer.body, { status, headers });
      }
      const idempotency = c.idempotency ? await idempotencyOf(req, c.idempotency, nextCtx) : undefined;
      // In the request's scope: the work it registers (board moves, say) runs once the handler succeeded.
      const result = await inRequestScope(() =>
        handler({ params, query, body, user: user as never, delivery: delivery as never, idempotency: idempotency as never, req, requestId }),
      );
      const answer = c.idempotency ? idempotentReply(c, result as Idempotent<unknown>) : result;
      const base = { ...baseHeaders(requestId, req, rate), ...deprecation };
      const response = c.conditional ? conditionalResponse(c, answer, req, base, serialized) : successResponse(c, answer, base);
      status = response.status;
      return response;
    } catch (caught) {
      const error = unavailableError(caught, requestId, req);
      if (validateResponses && error instanceof DomainError && !documented.has(error.code)) {
        // Fails the test run (tests/setup/test-server.ts): the route's documented errors must list every code it answers.
        log("error", { msg: "undocumented error code", route: routeLabel(req), method: req.method, code: error.code, summary: c.summary });
      }
      const response = errorResponse(error, requestId, rate, req);
      for (const [k, v] of Object.entries(deprecation)) response.headers.set(k, v);
      status = response.status;
      if (cronRun) cronRun.error = error instanceof DomainError ? `${error.code}: ${error.message}` : String(error);
      return response;
    } finally {
      if (cronRun) await recordCronRun(routeLabel(req), cronRun.started, performance.now() - started, status, cronRun.error);
      log(status === 503 ? "warn" : status >= 500 ? "error" : "info", {
        msg: "request",
        requestId,
        method: req.method,
        route: routeLabel(req),
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
  return Object.assign(run, { config: c });
}

/** The request's Idempotency-Key (required: else 400) and its scope: the method and the route's path template. */
async function idempotencyOf(
  req: Request,
  option: IdempotencyOption,
  nextCtx: { params: Promise<Record<string, string | string[]>> },
): Promise<IdempotencyKey | null> {
  const key = option === "required" ? requireIdempotencyKey(req) : idempotencyKeyOf(req);
  if (key === null) return null;
  return { key, scope: `${req.method} ${pathTemplate(new URL(req.url).pathname, await nextCtx.params)}` };
}

/** An idempotent write's answer: the route's status, and `Idempotent-Replayed: true` for a stored first answer. */
const idempotentReply = (c: AnyRouteConfig, r: Idempotent<unknown>) =>
  reply(r.data, { status: c.status ?? 200, headers: r.replayed ? { [REPLAYED_HEADER]: "true" } : undefined });

export function deprecationHeaders(c: AnyRouteConfig): Record<string, string> {
  if (!c.deprecated) return {};
  const since = Date.parse(c.deprecated.since);
  if (Number.isNaN(since)) throw new Error(`Route "${c.summary}": deprecated.since is not a date (${c.deprecated.since})`);
  return {
    Deprecation: `@${Math.floor(since / 1000)}`,
    ...(c.deprecated.successor ? { Link: `<${c.deprecated.successor}>; rel="successor-version"` } : {}),
  };
}

interface SerializedAnswer {
  body: string;
  etag: string;
}

/** Whether an If-None-Match header lists this strong tag (weak comparison, as RFC 9110 § 13.1.2 says), or is `*`. */
export function ifNoneMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** Route option `conditional`: the body and strong ETag (reused for the same data object), or 304 on a match. */
function conditionalResponse(
  c: AnyRouteConfig,
  result: unknown,
  req: Request,
  base: Record<string, string>,
  memo: WeakMap<object, SerializedAnswer>,
): Response {
  if (typeof result !== "object" || result === null || result instanceof Reply || result instanceof Response) {
    throw new Error(`Route "${c.summary}" is conditional: its handler must answer plain data`);
  }
  let answer = memo.get(result);
  if (!answer) {
    if (validateResponses) assertSchema(c, c.response, result, c.status ?? 200);
    const body = JSON.stringify(c.envelope === false ? result : { success: true, data: result });
    answer = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
    memo.set(result, answer);
  }
  const headers = new Headers(base);
  headers.set("ETag", answer.etag);
  headers.set("Cache-Control", conditionalCacheControl(c));
  if (c.auth !== "public") headers.append("Vary", "Authorization");
  if (ifNoneMatches(req.headers.get("if-none-match"), answer.etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", "application/json");
  return new Response(answer.body, { status: c.status ?? 200, headers });
}

/** The Cache-Control of a conditional route's answers: its `cache`, else revalidate every time (no-cache). */
export const conditionalCacheControl = (c: Pick<AnyRouteConfig, "cache" | "auth">) =>
  c.cache ? cacheControl(c.cache) : `${c.auth === "public" ? "public" : "private"}, no-cache`;

/** The envelope (or bare body), status, headers and cookies of a success: built here only, validated when asked. */
function successResponse(c: AnyRouteConfig, result: unknown, base: Record<string, string>): Response {
  // Binary or streaming bodies: the handler's Response passes through, with the pipeline's headers added.
  if (result instanceof Response) {
    // Only a route whose schema is a Response (z.instanceof(Response)), not any object, may answer its own.
    if (validateResponses && !(c.response?.safeParse(result).success && !c.response.safeParse({}).success)) {
      throw new Error(`Route "${c.summary}" answered its own Response but declares a JSON response`);
    }
    const headers = new Headers(result.headers); // Response.redirect()'s own headers are immutable
    for (const [k, v] of Object.entries(base)) if (!headers.has(k)) headers.set(k, v);
    return new Response(result.body, { status: result.status, headers });
  }
  const out = result instanceof Reply ? result : new Reply(result, {});
  const headers = new Headers(base);
  const status = out.init.status ?? c.status ?? 200;
  let response: Response;
  if (out.location !== undefined) {
    if (validateResponses && !c.redirect) throw new Error(`Route "${c.summary}" redirected but declares no redirect`);
    headers.set("Location", out.location);
    response = new Response(null, { status, headers });
  } else {
    if (validateResponses) {
      const schema = status === (c.status ?? 200) ? c.response : c.responses?.[status]?.schema;
      if (!schema) throw new Error(`Route "${c.summary}" answered ${status}, a success status it does not declare`);
      assertSchema(c, schema, out.data, status);
    }
    if (c.cache && status === (c.status ?? 200)) headers.set("Cache-Control", cacheControl(c.cache));
    response = Response.json(c.envelope === false ? out.data : { success: true, data: out.data }, { status, headers });
  }
  for (const [k, v] of Object.entries(out.init.headers ?? {})) response.headers.set(k, v);
  for (const cookie of out.init.cookies ?? []) response.headers.append("Set-Cookie", typeof cookie === "string" ? cookie : serializeCookie(cookie));
  return response;
}

async function authenticate(req: Request, c: AnyRouteConfig): Promise<{ user: AuthUser | null; delivery?: WebhookDelivery }> {
  const mode = c.auth;
  if (mode === "public") return { user: null };
  if (mode === "cron") {
    verifyCron(env().CRON_SECRET, req.headers.get("authorization"));
    return { user: null };
  }
  if (mode === "webhook") {
    // The limit applies before the signature is checked: an unsigned flood costs no more than the limit each.
    const rawBody = await readLimitedBody(req, c.bodyLimit ?? DEFAULT_BODY_LIMIT);
    const { secret, verifier } = c.webhook!;
    const id = verifier ? await verifier.verify(req.headers, rawBody) : verifySignature(webhookSecret(secret!), req.headers.get("x-signature"), rawBody);
    return { user: null, delivery: { id, rawBody } };
  }
  const header = req.headers.get("authorization");
  if (!header) {
    if (mode === "optional") return { user: null };
    throw new DomainError(sharedErrors.UNAUTHORIZED, "Sign in required: send Authorization: Bearer <session token>.");
  }
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  if (!match) throw new DomainError(sharedErrors.UNAUTHORIZED, "The Authorization header must be 'Bearer <session token>'.");
  const identity: Identity = await verifySessionToken(match[1]!);
  if (mode === "admin") {
    if (!identity.role) throw new DomainError(sharedErrors.FORBIDDEN, "This route is for staff only.");
    const area = c.staffArea ?? "admin";
    if (!mayOpen(identity.role, area)) throw new DomainError(sharedErrors.FORBIDDEN, `This route is for staff whose role opens the ${area} area.`);
  }
  const user = await resolveUser(identity);
  if (isSuspended(user) && !c.allowSuspended) {
    const until = user.suspendedUntil!.toISOString();
    throw new DomainError(
      sharedErrors.ACCOUNT_SUSPENDED,
      `Your account is suspended until ${until}. You can read your moderation actions and appeal them (GET /api/v1/me/moderation-actions), and export your data (POST /api/v1/me/exports).`,
      [{ path: "suspendedUntil", message: until }],
    );
  }
  return { user };
}

/** Whose bucket a request spends: the user's, the route's (machines), or the client address's. */
function rateLimitKey(req: Request, mode: AuthMode, user: AuthUser | null): string {
  if (user) return `u:${user.id}`;
  if (mode === "cron" || mode === "webhook") return `route:${req.method} ${routeLabel(req)}`;
  return `ip:${clientAddress(req.headers)}`;
}

export function requestIdOf(req: Request): string {
  return requestIdFrom(req.headers.get("x-request-id"));
}

export function routeLabel(req: Request): string {
  try {
    return new URL(req.url).pathname;
  } catch {
    return "?";
  }
}

/** Headers of every API answer, pipeline or not: request id, no-store, security, CORS for the request's origin. */
export function apiHeaders(req: Request, requestId: string): Record<string, string> {
  return { "X-Request-Id": requestId, "Cache-Control": "no-store", ...API_SECURITY_HEADERS, ...corsHeaders(req) };
}

function baseHeaders(requestId: string, req: Request | undefined, rate?: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = req
    ? apiHeaders(req, requestId)
    : { "X-Request-Id": requestId, "Cache-Control": "no-store", ...API_SECURITY_HEADERS };
  return Object.assign(headers, rateLimitHeaders(rate));
}

/** Seconds a client should wait before retrying a request whose transaction lost to concurrent ones twice. */
const CONFLICT_RETRY_AFTER_S = 1;

/**
 * A failure because PostgreSQL is unreachable (restart, failover) becomes 503 SERVICE_UNAVAILABLE with Retry-After,
 * logged as a warning: the request was fine and the pool reconnects by itself. So does a deadlock or serialization
 * failure that survived the transaction's one retry (lib/db/tx.ts retryingConflicts), or one outside a transaction:
 * the request was fine and a retry succeeds once the concurrent ones are done. Anything else is returned unchanged.
 */
function unavailableError(error: unknown, requestId: string, req?: Request): unknown {
  if (error instanceof DomainError) return error;
  if (isTransactionConflict(error)) {
    log("warn", {
      msg: "transaction conflict after retry",
      requestId,
      route: req ? routeLabel(req) : undefined,
      error: error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error),
    });
    return new DomainError(
      sharedErrors.SERVICE_UNAVAILABLE,
      `The request met concurrent ones on the same data and could not complete. Retry in ${CONFLICT_RETRY_AFTER_S} s.`,
      undefined,
      { "Retry-After": String(CONFLICT_RETRY_AFTER_S) },
    );
  }
  if (!isDatabaseUnavailable(error)) return error;
  log("warn", {
    msg: "database unavailable",
    requestId,
    route: req ? routeLabel(req) : undefined,
    error: error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error),
  });
  return new DomainError(sharedErrors.SERVICE_UNAVAILABLE, `The database is unavailable. Retry in ${DATABASE_RETRY_AFTER_S} s.`, undefined, {
    "Retry-After": String(DATABASE_RETRY_AFTER_S),
  });
}

export function errorResponse(caught: unknown, requestId: string, rate?: RateLimitResult, req?: Request): Response {
  const error = unavailableError(caught, requestId, req);
  if (error instanceof DomainError) {
    return Response.json(errorBody(error.code, error.message, error.details), {
      status: error.status,
      headers: { ...baseHeaders(requestId, req, rate), ...error.headers },
    });
  }
  log("error", {
    msg: "unhandled error",
    requestId,
    route: req ? routeLabel(req) : undefined,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return Response.json(errorBody(sharedErrors.INTERNAL_ERROR.code, "Something went wrong on our side. Quote the request id if you report it."), {
    status: sharedErrors.INTERNAL_ERROR.status,
    headers: baseHeaders(requestId, req, rate),
  });
}

function assertSchema(c: AnyRouteConfig, schema: ZodType | undefined, data: unknown, status: number): void {
  const result = schema ? schema.safeParse(data) : { success: false as const, error: { issues: "no response schema" } };
  if (!result.success) {
    throw new Error(`Response does not match its schema (${c.summary}, ${status}): ${JSON.stringify(result.error.issues).slice(0, 500)}`);
  }
}
