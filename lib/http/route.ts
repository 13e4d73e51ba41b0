import { randomUUID } from "node:crypto";
import { z, type ZodType } from "zod";
import { verifySessionToken, type Identity } from "../auth/tokens";
import { resolveUser, type AuthUser } from "../auth/users";
import { DomainError, ERROR_CODES, type ErrorCode, type ErrorDetail } from "./errors";
import { log } from "./log";
import { limiterFor, type RateLimitPolicy, type RateLimitResult } from "./rate-limit";
import { readJsonBody, UNSET_BODY } from "./body";
import { clientAddress } from "./client-ip";

// The one request pipeline: auth → rate limit → parse & validate → handler → serialize → errors.

export type AuthMode = "public" | "bearer" | "optional" | "admin";

export interface RouteConfig<P, Q, B, R> {
  summary: string;
  description?: string;
  tags: string[];
  auth: AuthMode;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** A body schema is required unless this is false (then an empty body parses as undefined). */
  bodyRequired?: boolean;
  /** Largest accepted body in bytes (default 16 KiB). */
  bodyLimit?: number;
  rateLimit?: RateLimitPolicy;
  /** Schema of `data` in the envelope, or of the whole body when envelope is false. */
  response: ZodType<R>;
  /** `{ success: true, data }` (default) or the bare object the spec names for this route. */
  envelope?: boolean;
  status?: number;
  /** Error codes this route can answer beyond those implied by auth, validation and rate limits. */
  errors?: ErrorCode[];
  deprecated?: boolean;
  /** Document-only overrides for routes that are not JSON in and out (multipart uploads, redirects, images). */
  openapi?: { requestBody?: unknown; successResponses?: Record<string, unknown> };
}

export interface HandlerContext<P, Q, B, A extends AuthMode> {
  params: P;
  query: Q;
  body: B;
  user: A extends "bearer" | "admin" ? AuthUser : AuthUser | null;
  req: Request;
  requestId: string;
}

export interface RouteHandler {
  (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }): Promise<Response>;
  config: RouteConfig<unknown, unknown, unknown, unknown>;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024;

const validateResponses = process.env.VALIDATE_RESPONSES === "1";

export function route<P = undefined, Q = undefined, B = undefined, R = unknown, A extends AuthMode = AuthMode>(
  config: RouteConfig<P, Q, B, R> & { auth: A },
  handler: (ctx: HandlerContext<P, Q, B, A>) => Promise<R | Response>,
): RouteHandler {
  const run = async (req: Request, nextCtx: { params: Promise<Record<string, string | string[]>> }) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    let status = 500;
    let rate: RateLimitResult | undefined;
    try {
      const user = await authenticate(req, config.auth);
      if (config.rateLimit) {
        rate = await limiterFor(config.rateLimit)(user ? `u:${user.id}` : `ip:${clientAddress(req.headers)}`);
        if (!rate.allowed) {
          const retryAfter = Math.max(1, Math.ceil((rate.reset - Date.now()) / 1000));
          throw new DomainError("RATE_LIMITED", `Too many requests. Retry in ${retryAfter} s.`, undefined, {
            "Retry-After": String(retryAfter),
          });
        }
      }
      const params = config.params ? parse(config.params, await nextCtx.params, "params") : (undefined as P);
      const query = config.query ? parse(config.query, queryObject(req), "query") : (undefined as Q);
      let body = undefined as B;
      if (config.body) {
        const raw = await readJsonBody(req, config.bodyLimit ?? DEFAULT_BODY_LIMIT, config.bodyRequired !== false);
        body = raw === UNSET_BODY ? (undefined as B) : parse(config.body, raw, "body");
      }
      const data = await handler({ params, query, body, user: user as never, req, requestId });
      // Redirects and binary bodies: a handler may return a Response, which passes through as-is.
      if (data instanceof Response) {
        status = data.status;
        const headers = new Headers(data.headers); // Response.redirect()'s own headers are immutable
        for (const [k, v] of Object.entries(baseHeaders(requestId, rate))) if (!headers.has(k)) headers.set(k, v);
        return new Response(data.body, { status: data.status, headers });
      }
      if (validateResponses) assertResponse(config, data);
      status = config.status ?? 200;
      return Response.json(config.envelope === false ? data : { success: true, data }, { status, headers: baseHeaders(requestId, rate) });
    } catch (error) {
      const response = errorResponse(error, requestId, rate, req);
      status = response.status;
      return response;
    } finally {
      log(status >= 500 ? "error" : "info", {
        msg: "request",
        requestId,
        method: req.method,
        route: routeLabel(req),
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
  return Object.assign(run, { config: config as RouteConfig<unknown, unknown, unknown, unknown> });
}

async function authenticate(req: Request, mode: AuthMode): Promise<AuthUser | null> {
  if (mode === "public") return null;
  const header = req.headers.get("authorization");
  if (!header) {
    if (mode === "optional") return null;
    throw new DomainError("UNAUTHORIZED", "Sign in required: send Authorization: Bearer <session token>.");
  }
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  if (!match) throw new DomainError("UNAUTHORIZED", "The Authorization header must be 'Bearer <session token>'.");
  const identity: Identity = await verifySessionToken(match[1]);
  if (mode === "admin" && !identity.isAdmin) throw new DomainError("FORBIDDEN", "This route is for staff only.");
  return resolveUser(identity);
}

/** Deepest nesting of arrays and objects accepted in a request (the depth of the JSON, a scalar body being 0). */
export const MAX_INPUT_DEPTH = 32;

interface Frame {
  value: unknown;
  key: string;
  depth: number;
  parent: Frame | null;
}

const pathOf = (frame: Frame): string => {
  const keys: string[] = [];
  for (let f: Frame | null = frame; f; f = f.parent) keys.push(f.key);
  return keys.reverse().join(".");
};

/**
 * The first problem PostgreSQL or the stack would trip on: a string (value or key) holding U+0000, which text
 * cannot store, or nesting past MAX_INPUT_DEPTH. Iterative, and a path is built only for the problem found, so a
 * hostile body costs time linear in its size.
 */
function inputProblem(value: unknown, where: string): ErrorDetail | null {
  const stack: Frame[] = [{ value, key: where, depth: 0, parent: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === "string") {
      if (v.includes("\u0000")) return { path: pathOf(frame), message: "Must not contain NUL characters" };
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (frame.depth >= MAX_INPUT_DEPTH) return { path: pathOf(frame), message: `Nested more than ${MAX_INPUT_DEPTH} levels deep` };
    const depth = frame.depth + 1;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), depth, parent: frame });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Frame = { value: (v as Record<string, unknown>)[key], key, depth, parent: frame };
        if (key.includes("\u0000")) return { path: pathOf(child), message: "Must not contain NUL characters" };
        stack.push(child);
      }
    }
  }
  return null;
}

export function parse<T>(schema: ZodType<T>, value: unknown, where: "params" | "query" | "body"): T {
  const problem = inputProblem(value, where);
  if (problem) throw new DomainError("VALIDATION_ERROR", `Invalid request ${where}.`, [problem]);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DomainError("VALIDATION_ERROR", `Invalid request ${where}.`, issuesToDetails(result.error, where));
}

export function issuesToDetails(error: z.ZodError, where: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = [where, ...issue.path.map(String)];
    // One detail per unknown field, named, rather than one for the object that holds them.
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path: [...path, key].join("."), message: "Unknown field" }));
    return [{ path: path.join("."), message: issue.message }];
  });
}

function queryObject(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(req.url).searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
}

function routeLabel(req: Request): string {
  try {
    return new URL(req.url).pathname;
  } catch {
    return "?";
  }
}

/** On every API answer: JSON is never a page to render, frame or sniff as something else. */
export const API_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
};

function baseHeaders(requestId: string, rate?: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store", ...API_SECURITY_HEADERS };
  if (rate && !rate.degraded) {
    headers["X-RateLimit-Limit"] = String(rate.limit);
    headers["X-RateLimit-Remaining"] = String(Math.max(0, rate.remaining));
    headers["X-RateLimit-Reset"] = String(Math.ceil(rate.reset / 1000));
  }
  return headers;
}

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]) {
  return { success: false as const, error: { code, message, ...(details?.length ? { details } : {}) } };
}

export function errorResponse(error: unknown, requestId: string, rate?: RateLimitResult, req?: Request): Response {
  if (error instanceof DomainError) {
    return Response.json(errorBody(error.code, error.message, error.details), {
      status: error.status,
      headers: { ...baseHeaders(requestId, rate), ...error.headers },
    });
  }
  log("error", {
    msg: "unhandled error",
    requestId,
    route: req ? routeLabel(req) : undefined,
    error: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return Response.json(errorBody("INTERNAL_ERROR", "Something went wrong on our side. Quote the request id if you report it."), {
    status: ERROR_CODES.INTERNAL_ERROR.status,
    headers: baseHeaders(requestId, rate),
  });
}

function assertResponse(config: RouteConfig<unknown, unknown, unknown, unknown>, data: unknown): void {
  const result = config.response.safeParse(data);
  if (!result.success) {
    throw new Error(`Response does not match its schema (${config.summary}): ${JSON.stringify(result.error.issues).slice(0, 500)}`);
  }
}
