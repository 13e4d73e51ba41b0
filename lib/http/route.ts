import type { ZodType } from "zod";
import { processCache } from "../db/cache";
import { REPLAYED_HEADER, type Idempotent, type IdempotencyKey } from "../db/idempotency";
import { env, replicaUrls } from "../env";
import { DomainError, sharedErrors } from "../kernel/errors";
import { log } from "../kernel/log";
import { inRequestScope } from "../kernel/request-scope";
import { markRecentWriter } from "../redis/recent-writers";
import {
  baseHeaders,
  conditionalResponse,
  deprecationHeaders,
  errorResponse,
  requestIdOf,
  routeLabel,
  successResponse,
  unavailableError,
  validateResponses,
  type SerializedAnswer,
} from "./answers";
import { authenticate, rateLimitKey } from "./authenticate";
import { parseJsonBytes, readJsonBody, UNSET_BODY } from "./body";
import { recordCronRun } from "./cron-runs";
import { featureCheck } from "./features";
import { idempotencyKeyOf, pathTemplate, requireIdempotencyKey } from "./idempotency";
import { parse, queryObject } from "./input";
import { limiterFor, type RateLimitResult } from "./rate-limit";
import { reply, Reply } from "./reply";
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_RATE_LIMIT,
  type AnyRouteConfig,
  type AuthMode,
  type HandlerContext,
  type HandlerResult,
  type IdempotencyOption,
  type RouteConfig,
  type RouteHandler,
  type WebhookOption,
} from "./route-config";
import { documentedErrors } from "./route-errors";

// The route's public face: route() here; what a route declares (route-config.ts), how it answers (answers.ts), who is
// calling (authenticate.ts) behind it.
export { issuesToDetails, MAX_INPUT_DEPTH, parse } from "./input";
export { API_SECURITY_HEADERS, errorBody } from "./bare";
export { AUTH_MODES, cacheControl, DEFAULT_BODY_LIMIT, DEFAULT_RATE_LIMIT } from "./route-config";
export type {
  AuthMode,
  CacheOption,
  HandlerContext,
  IdempotencyOption,
  ResponseSpec,
  RouteConfig,
  RouteHandler,
  WebhookDelivery,
  WebhookOption,
  WebhookVerifier,
} from "./route-config";
export { apiHeaders, conditionalCacheControl, deprecationHeaders, errorResponse, ifNoneMatches, requestIdOf, routeLabel } from "./answers";

// The one request pipeline: auth → rate limit → parse & validate → handler → serialize → errors.

/** Methods that write nothing (a write is any other: it marks the fan for read-your-writes). */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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
      // Read-your-writes with read replicas: the fan's next reads (on any instance) go to the primary for a while.
      // Awaited, so the mark is stored before the client can send its next request (one auto-pipelined SET).
      if (user && !READ_METHODS.has(req.method) && status >= 200 && status < 300 && replicaUrls().length > 0) await markRecentWriter(user.id);
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
