import { createHash } from "node:crypto";
import type { ZodType } from "zod";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "../db/unavailable";
import { isTransactionConflict } from "../db/tx";
import { DomainError, sharedErrors } from "../kernel/errors";
import { log } from "../kernel/log";
import { API_SECURITY_HEADERS, errorBody, requestIdFrom } from "./bare";
import { corsHeaders } from "./cors";
import { rateLimitHeaders, type RateLimitResult } from "./rate-limit";
import { Reply, serializeCookie } from "./reply";
import { cacheControl, type AnyRouteConfig } from "./route-config";

// The pipeline's answers (lib/http/route.ts): a success serialized (envelope or bare, conditional GETs, deprecation
// headers), an error mapped to its JSON shape and status, and the headers every API answer carries.

/** VALIDATE_RESPONSES=1 (tests): every answer is checked against the route's declared schema and errors. */
export const validateResponses = process.env.VALIDATE_RESPONSES === "1";

export function deprecationHeaders(c: AnyRouteConfig): Record<string, string> {
  if (!c.deprecated) return {};
  const since = Date.parse(c.deprecated.since);
  if (Number.isNaN(since)) throw new Error(`Route "${c.summary}": deprecated.since is not a date (${c.deprecated.since})`);
  return {
    Deprecation: `@${Math.floor(since / 1000)}`,
    ...(c.deprecated.successor ? { Link: `<${c.deprecated.successor}>; rel="successor-version"` } : {}),
  };
}

export interface SerializedAnswer {
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
export function conditionalResponse(
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
export function successResponse(c: AnyRouteConfig, result: unknown, base: Record<string, string>): Response {
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

export function baseHeaders(requestId: string, req: Request | undefined, rate?: RateLimitResult): Record<string, string> {
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
export function unavailableError(error: unknown, requestId: string, req?: Request): unknown {
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
