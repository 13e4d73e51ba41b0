import { z, type ZodType } from "zod";
import { IDEMPOTENCY_HEADER } from "../../db/idempotency";
import { CORS_EXPOSED_HEADERS } from "../../http/cors";
import { IDEMPOTENCY_KEY_CHARS, IDEMPOTENCY_KEY_MAX } from "../../http/idempotency";
import { sharedErrors, type ErrorDef } from "../../kernel/errors";
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_S } from "../../http/machine-auth";
import { policyLimits, type RateLimitPolicy } from "../../http/rate-limit";
import { cacheControl, conditionalCacheControl, DEFAULT_RATE_LIMIT, type AuthMode, type RouteConfig, type RouteHandler } from "../../http/route";
import { documentedErrors } from "../../http/route-errors";
import { sentAs } from "../../kernel/schemas";
import { WALLET_BALANCE_MAX } from "../../core/wallets/schemas";

// Builds the OpenAPI 3.1 documents from the same route declarations the pipeline enforces. The routes come in as an
// argument, the registry app/api/routes.generated.ts (written by scripts/routes.mjs from app/api/**/route.ts): this
// module never imports app/.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Json = Record<string, unknown>;

/**
 * Every API route module by OpenAPI path. Its order is kept (new routes are appended): a named schema met again with
 * nested references is listed under a second name (`…Output`, `…Input`), so the order decides which operations
 * use which name.
 */
export type RouteRegistry = readonly { path: string; module: Record<string, unknown> }[];

/** Internal document (staff, cron, webhooks) or public contract: the route's `internal`, else its auth mode. */
export const isInternal = (c: RouteConfig<unknown, unknown, unknown, unknown>): boolean =>
  c.internal ?? (c.auth === "admin" || c.auth === "cron" || c.auth === "webhook");

/** The declared operations of the registry, in its order; with `kind`, those of that document only. */
export function routeConfigs(
  registry: RouteRegistry,
  kind?: "public" | "internal",
): { path: string; method: (typeof HTTP_METHODS)[number]; handler: RouteHandler }[] {
  const out = [];
  for (const { path, module } of registry) {
    for (const method of HTTP_METHODS) {
      const handler = module[method] as RouteHandler | undefined;
      if (!handler || !("config" in handler)) continue;
      if (kind === undefined || isInternal(handler.config) === (kind === "internal")) out.push({ path, method, handler });
    }
  }
  return out;
}

// Named schemas (`.meta({ id })`) go to components/schemas, shared by every operation that uses them.
let components: Record<string, Json> = {};

function schemaOf(schema: ZodType, io: "input" | "output"): Json {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", reused: "inline" }) as Json;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  // The same id can differ between request (input) and response (output) forms; keep both, apart.
  const names: Record<string, string> = {};
  for (const [id, def] of Object.entries(defs)) {
    const existing = components[id];
    names[id] = !existing || JSON.stringify(existing) === JSON.stringify(def) ? id : `${id}${io === "input" ? "Input" : "Output"}`;
  }
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? `#/components/schemas/${names[v.slice(8)]}` : rewrite(v);
    }
    return out;
  };
  for (const [id, def] of Object.entries(defs)) components[names[id]!] = rewrite(def) as Json;
  return rewrite(json) as Json;
}

// Path and query values arrive as strings; one the pipeline parses into a number or boolean is documented as the value
// a client sends (so a generated client types `limit` as a number): as `sentAs` records it (intQuery), else, for a
// string piped into z.number() or z.boolean(), as that output schema. The parsing itself is unchanged.
function sentSchema(schema: ZodType | undefined): Json | undefined {
  if (!schema) return undefined;
  const registered = sentAs.get(schema);
  if (registered) return { ...registered };
  const def = schema._zod.def as { type: string; innerType?: ZodType; defaultValue?: unknown; in?: ZodType; out?: ZodType };
  if (def.type === "optional") return sentSchema(def.innerType);
  if (def.type === "default") {
    const inner = sentSchema(def.innerType);
    return inner && { ...inner, default: def.defaultValue };
  }
  if (def.type !== "pipe") return undefined;
  const outType = def.out!._zod.def.type;
  if (outType !== "number" && outType !== "boolean") return sentSchema(def.in);
  const json = z.toJSONSchema(def.out!, { target: "draft-2020-12", io: "output" }) as Json;
  delete json.$schema;
  return json;
}

function parameters(schema: ZodType | undefined, location: "path" | "query"): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, "input") as { properties?: Record<string, Json>; required?: string[] };
  const shape = (schema as { shape?: Record<string, ZodType> }).shape ?? {};
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop as Json;
    return {
      name,
      in: location,
      required: location === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: sentSchema(shape[name]) ?? rest,
    };
  });
}

const errorRef = { $ref: "#/components/schemas/Error" };

// Response headers, written out in each response that carries them (the contract test allows $refs to schemas only),
// so kept short; the document's description explains them once.
const RATE_LIMIT_HEADERS: Record<string, Json> = {
  "RateLimit-Policy": { description: "`<limit>;w=<window seconds>`", schema: { type: "string" } },
  "RateLimit-Limit": { description: "Requests per window", schema: { type: "integer" } },
  "RateLimit-Remaining": { description: "Requests left in this window", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window resets", schema: { type: "integer" } },
};
const RETRY_AFTER_HEADER: Json = { description: "With RATE_LIMITED or TOO_MANY_STREAMS: seconds to wait", schema: { type: "integer", minimum: 1 } };
const UNAVAILABLE_RETRY_AFTER_HEADER: Json = { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } };

// Route option `conditional`: the strong ETag of the exact body, revalidation, and 304 for a matching If-None-Match.
const CONDITIONAL_HEADERS = (c: RouteConfig<unknown, unknown, unknown, unknown>): Record<string, Json> => ({
  ETag: { description: "Strong tag of the exact body (SHA-256); send it back in If-None-Match", schema: { type: "string" } },
  "Cache-Control": { schema: { type: "string", const: conditionalCacheControl(c) } },
  ...(c.auth !== "public" ? { Vary: { description: "The answer depends on the session", schema: { type: "string" } } } : {}),
});
const IF_NONE_MATCH: Json = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of the answer the client holds: 304 Not Modified without a body while it is current.",
  schema: { type: "string" },
};

/** The Idempotency-Key header of a route with the `idempotency` option (lib/http/idempotency.ts). */
const IDEMPOTENCY_KEY = (option: "required" | "optional"): Json => ({
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: option === "required",
  description:
    "A key of the client's choosing (a UUID, say) that makes a retry safe: the same key with the same request answers the first answer again (Idempotent-Replayed: true); with a different request, 409 IDEMPOTENCY_KEY_REUSED. 1 to 255 visible ASCII characters, else 400.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: `^[${IDEMPOTENCY_KEY_CHARS}]+$` },
});

/** Security requirement of each auth mode. */
const SECURITY: Record<AuthMode, Json[]> = {
  public: [],
  optional: [{}, { bearerAuth: [] }],
  bearer: [{ bearerAuth: [] }],
  admin: [{ bearerAuth: [] }],
  cron: [{ cronSecret: [] }],
  webhook: [{ webhookSignature: [] }],
};

const KEYED_BY: Record<RateLimitPolicy | "default", string> = {
  write: "user",
  earn: "user",
  ugc: "user",
  money: "user",
  signals: "user",
  exchange: "client address",
  mobileCallback: "user",
  gifts: "user",
  public: "client address",
  search: "user when signed in, else client address",
  anonymous: "client address",
  user: "user",
  machine: "route",
  default: "user when signed in, else client address",
};

/** The policies that can apply to an operation: its named one, or its auth mode's default (and `user` when signed in). */
function rateLimitsOf(c: RouteConfig<unknown, unknown, unknown, unknown>): Json[] {
  if (c.rateLimit === false) return [];
  const policies: RateLimitPolicy[] = c.rateLimit ? [c.rateLimit] : c.auth === "optional" ? ["anonymous", "user"] : [DEFAULT_RATE_LIMIT[c.auth]];
  return policies.map((policy) => {
    const { tokens, window } = policyLimits(policy);
    const per = c.rateLimit ? KEYED_BY[policy] : c.auth === "optional" ? (policy === "user" ? "user" : "client address") : KEYED_BY[policy];
    return { policy, limit: tokens, window, per, ...(c.rateLimit ? {} : { default: true }) };
  });
}

const withHeaders = (response: unknown, headers: Record<string, Json>): Json => {
  const r = response as Json;
  return { ...r, headers: { ...((r.headers as Json | undefined) ?? {}), ...headers } };
};

function operation(path: string, method: string, h: { config: RouteConfig<unknown, unknown, unknown, unknown> }): Json {
  const c = h.config;
  const envelope = (data: Json) =>
    c.envelope === false ? data : { type: "object", required: ["success", "data"], properties: { success: { const: true }, data } };
  let responses: Json;
  if (c.openapi?.successResponses) responses = { ...c.openapi.successResponses };
  else if (c.redirect) {
    responses = {
      "302": { description: c.redirect, headers: { Location: { schema: { type: "string" }, description: "Where the client goes next." } } },
    };
  } else {
    const main: Json = { description: "Success", content: { "application/json": { schema: envelope(schemaOf(c.response!, "output")) } } };
    responses = {
      [String(c.status ?? 200)]: c.conditional
        ? withHeaders(main, CONDITIONAL_HEADERS(c))
        : c.cache
          ? withHeaders(main, { "Cache-Control": { schema: { type: "string", const: cacheControl(c.cache) } } })
          : main,
    };
    if (c.conditional) {
      responses["304"] = { description: "Not Modified: If-None-Match holds the current ETag; no body.", headers: CONDITIONAL_HEADERS(c) };
    }
    for (const [status, spec] of Object.entries(c.responses ?? {})) {
      responses[status] = { description: spec.description, content: { "application/json": { schema: envelope(schemaOf(spec.schema, "output")) } } };
    }
  }
  const limits = rateLimitsOf(c);
  if (limits.length) for (const status of Object.keys(responses)) responses[status] = withHeaders(responses[status], RATE_LIMIT_HEADERS);
  const byStatus = new Map<number, ErrorDef[]>();
  for (const error of documentedErrors(c)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  for (const [status, errors] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const codes = errors.map((e) => e.code);
    const response: Json = {
      description: errors.map((e) => `${e.code}: ${e.description}`).join(" "),
      content: { "application/json": { schema: errorRef } },
    };
    responses[String(status)] = codes.includes("RATE_LIMITED")
      ? withHeaders(response, { "Retry-After": RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS })
      : codes.includes("SERVICE_UNAVAILABLE")
        ? withHeaders(response, { "Retry-After": UNAVAILABLE_RETRY_AFTER_HEADER })
        : response;
  }
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: c.tags,
    security: c.webhook?.verifier ? [{ [c.webhook.verifier.scheme.name]: [] }] : SECURITY[c.auth],
    "x-auth": c.auth,
    ...(c.auth === "admin" ? { "x-staff-area": c.staffArea ?? "admin" } : {}),
    ...(c.rateLimit ? { "x-rate-limit-policy": c.rateLimit } : {}),
    ...(limits.length ? { "x-rate-limit": limits } : {}),
    ...(c.deprecated ? { deprecated: true } : {}),
    parameters: [
      ...parameters(c.params, "path"),
      ...parameters(c.query, "query"),
      ...(c.conditional ? [IF_NONE_MATCH] : []),
      ...(c.idempotency ? [IDEMPOTENCY_KEY(c.idempotency)] : []),
    ],
    ...(c.openapi?.requestBody
      ? { requestBody: c.openapi.requestBody }
      : c.body
        ? {
            requestBody: {
              required: c.bodyRequired !== false,
              content: { "application/json": { schema: schemaOf(c.body, "input") } },
            },
          }
        : {}),
    responses,
  };
}

/** GET /api/openapi.json: its route (app/api/openapi.json) serves this document, which describes it from this config. */
export const OPENAPI_DOCUMENT_ROUTE = {
  summary: "This OpenAPI document",
  description: "The OpenAPI 3.1 document of the public contract.",
  tags: ["Platform"],
  auth: "public",
  envelope: false,
  cache: { maxAge: 60 },
  database: false,
  response: z.record(z.string(), z.unknown()).meta({ description: "OpenAPI 3.1 document" }),
} satisfies RouteConfig<undefined, undefined, undefined, Record<string, unknown>>;

const SECURITY_SCHEMES: Record<string, Json> = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      'Clerk session token (RS256). Staff routes need a staff role in the claim metadata.role ("admin", "moderator", "support", "economy") that opens the x-staff-area of the operation; "admin" opens every area.',
  },
  cronSecret: {
    type: "http",
    scheme: "bearer",
    description: "Vercel Cron: `Authorization: Bearer <CRON_SECRET>`, compared in constant time; with CRON_SECRET unset every call is refused.",
  },
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: SIGNATURE_HEADER,
    description: `\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`, keyed with the secret the operation names; \`t\` within ±${SIGNATURE_TOLERANCE_S} s; several v1 entries allowed (rotation).`,
  },
};

/** The security schemes a document's operations use (the public one has no cron routes, so no cron secret). */
function usedSchemes(paths: Record<string, Json>, registry: RouteRegistry): Record<string, Json> {
  const schemes = { ...SECURITY_SCHEMES };
  for (const { handler } of routeConfigs(registry)) {
    const v = handler.config.webhook?.verifier;
    if (v) schemes[v.scheme.name] = { type: "apiKey", in: "header", name: v.scheme.header, description: v.scheme.description };
  }
  const used = new Set<string>();
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops) as { security?: Record<string, unknown>[] }[]) {
      for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) used.add(name);
    }
  }
  return Object.fromEntries(Object.entries(schemes).filter(([name]) => used.has(name)));
}

const cache = new WeakMap<RouteRegistry, Map<string, Json>>();

/** The public contract (GET /api/openapi.json). */
export const openApiDocument = (registry: RouteRegistry) => buildDocument("public", registry);
/** Staff, cron, webhook and other internal routes, kept out of the public contract (GET /api/admin/openapi.json). */
export const internalOpenApiDocument = (registry: RouteRegistry) => buildDocument("internal", registry);

/**
 * Every error an operation of the registry can answer (public and internal alike), the shared ones first: the
 * catalogue is assembled from the routes' declarations, so it holds exactly the codes the modules' routes list.
 */
function errorCatalogue(registry: RouteRegistry): Map<string, ErrorDef> {
  const catalogue = new Map<string, ErrorDef>(Object.values(sharedErrors).map((e) => [e.code, e]));
  for (const kind of ["public", "internal"] as const) {
    for (const { handler } of routeConfigs(registry, kind)) {
      for (const e of [...(handler.config.errors ?? []), ...(handler.config.webhook?.verifier?.errors ?? [])])
        if (!catalogue.has(e.code)) catalogue.set(e.code, e);
    }
  }
  return catalogue;
}

function buildDocument(kind: "public" | "internal", registry: RouteRegistry): Json {
  const built = cache.get(registry) ?? new Map<string, Json>();
  cache.set(registry, built);
  const hit = built.get(kind);
  if (hit) return hit;
  components = {};
  const catalogue = errorCatalogue(registry);
  const paths: Record<string, Json> = {};
  for (const { path, method, handler } of routeConfigs(registry, kind)) {
    (paths[path] ??= {})[method.toLowerCase()] = operation(path, method, handler);
  }
  if (kind === "public") {
    paths["/api/openapi.json"] = { get: { ...operation("/api/openapi.json", "GET", { config: OPENAPI_DOCUMENT_ROUTE }), operationId: "getOpenApiDocument" } };
  }
  const doc: Json = {
    openapi: "3.1.0",
    info: {
      title: kind === "public" ? "Fan Engagement API" : "Fan Engagement API — internal (staff, cron)",
      version: "1.0.0",
      description:
        "Backend of the fan-engagement platform. Successful responses use `{ success: true, data }` unless an operation documents a bare object. Every error is `{ success: false, error: { code, message, details? } }`; every response carries `X-Request-Id`. Unknown /api paths answer 404 NOT_FOUND; a known path with another method answers 405 with an Allow header. " +
        "Rate-limited operations (`x-rate-limit`: policy, limit, window, what it is keyed by) answer `RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (IETF draft-ietf-httpapi-ratelimit-headers; absent when the limiter could not answer and the request proceeded), and past the limit 429 RATE_LIMITED with `Retry-After`; the older `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds) come along. " +
        `Browsers on the origins in CORS_ALLOWED_ORIGINS may call the API cross-origin (preflight answered for every path; readable headers: ${CORS_EXPOSED_HEADERS.join(", ")}). ` +
        `Money (balances, ledger amounts, prices, bids, offers, fees) is an integer number of minor units (COIN: hundredths of a coin), and Rep and points are integers; JSON carries them as plain integers, exact because every one is below 2^53 (9007199254740992): each money input has a maximum (400 VALIDATION_ERROR naming the field past it) and a wallet stops at ${WALLET_BALANCE_MAX} minor units (a credit past it is 409 BALANCE_LIMIT).`,
    },
    servers: [{ url: "/" }],
    tags: [...new Set(Object.values(paths).flatMap((p) => Object.values(p).flatMap((op) => (op as { tags: string[] }).tags)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: usedSchemes(paths, registry),
      schemas: {
        ...components,
        Error: {
          type: "object",
          required: ["success", "error"],
          properties: {
            success: { const: false },
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", enum: [...catalogue.keys()] },
                message: { type: "string" },
                details: {
                  type: "array",
                  items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
                },
              },
            },
          },
        },
      },
      "x-error-codes": Object.fromEntries([...catalogue.values()].map(({ code, status, description }) => [code, { status, description }])),
    },
  };
  built.set(kind, doc);
  return doc;
}
