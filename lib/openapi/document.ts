import { z, type ZodType } from "zod";
import { ERROR_CODES, type ErrorCode } from "../http/errors";
import type { RouteHandler } from "../http/route";
import { INTERNAL_ROUTE_MODULES, ROUTE_MODULES } from "./routes";

// Builds the OpenAPI 3.1 document from the same route declarations the pipeline enforces.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Json = Record<string, unknown>;

type Modules = Record<string, Record<string, unknown>>;

export function routeConfigs(modules: Modules = ROUTE_MODULES): { path: string; method: (typeof HTTP_METHODS)[number]; handler: RouteHandler }[] {
  const out = [];
  for (const [path, mod] of Object.entries(modules)) {
    for (const method of HTTP_METHODS) {
      const handler = mod[method] as RouteHandler | undefined;
      if (handler && "config" in handler) out.push({ path, method, handler });
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

function parameters(schema: ZodType | undefined, location: "path" | "query"): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, "input") as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop as Json;
    return {
      name,
      in: location,
      required: location === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const errorRef = { $ref: "#/components/schemas/Error" };

function errorCodesFor(h: RouteHandler): ErrorCode[] {
  const c = h.config;
  const codes = new Set<ErrorCode>(c.errors ?? []);
  if (c.params || c.query || c.body || c.auth !== "public") codes.add("VALIDATION_ERROR");
  if (c.auth !== "public") codes.add("UNAUTHORIZED");
  if (c.auth === "admin") codes.add("FORBIDDEN");
  if (c.body) codes.add("PAYLOAD_TOO_LARGE");
  if (c.rateLimit) codes.add("RATE_LIMITED");
  codes.add("INTERNAL_ERROR");
  if (!(c.params || c.query || c.body || c.errors?.includes("VALIDATION_ERROR"))) codes.delete("VALIDATION_ERROR");
  return [...codes];
}

function operation(path: string, method: string, h: RouteHandler): Json {
  const c = h.config;
  const data = schemaOf(c.response, "output");
  const success = c.envelope === false
    ? data
    : { type: "object", required: ["success", "data"], properties: { success: { const: true }, data } };
  const responses: Json = c.openapi?.successResponses ?? {
    [String(c.status ?? 200)]: { description: "Success", content: { "application/json": { schema: success } } },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(h)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: codes.map((code) => `${code}: ${ERROR_CODES[code].description}`).join(" "),
      content: { "application/json": { schema: errorRef } },
    };
  }
  const security =
    c.auth === "public" ? [] : c.auth === "optional" ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: c.tags,
    security,
    "x-auth": c.auth,
    ...(c.rateLimit ? { "x-rate-limit-policy": c.rateLimit } : {}),
    ...(c.deprecated ? { deprecated: true } : {}),
    parameters: [...parameters(c.params, "path"), ...parameters(c.query, "query")],
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

const cache = new Map<string, Json>();

/** The public contract (GET /api/openapi.json). */
export const openApiDocument = () => buildDocument("public", ROUTE_MODULES);
/** Staff, cron and other internal routes, kept out of the public contract (GET /api/admin/openapi.json). */
export const internalOpenApiDocument = () => buildDocument("internal", INTERNAL_ROUTE_MODULES);

function buildDocument(kind: "public" | "internal", modules: Modules): Json {
  const hit = cache.get(kind);
  if (hit) return hit;
  components = {};
  const paths: Record<string, Json> = {};
  for (const { path, method, handler } of routeConfigs(modules)) {
    (paths[path] ??= {})[method.toLowerCase()] = operation(path, method, handler);
  }
  if (kind === "public") paths["/api/openapi.json"] = {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      tags: ["Platform"],
      security: [],
      "x-auth": "public",
      responses: { "200": { description: "OpenAPI 3.1 document", content: { "application/json": { schema: { type: "object" } } } } },
    },
  };
  const doc: Json = {
    openapi: "3.1.0",
    info: {
      title: kind === "public" ? "Fan Engagement API" : "Fan Engagement API — internal (staff, cron)",
      version: "1.0.0",
      description:
        "Backend of the fan-engagement platform. Successful responses use `{ success: true, data }` unless an operation documents a bare object. Every error is `{ success: false, error: { code, message, details? } }`; every response carries `X-Request-Id`. Unknown /api paths answer 404 NOT_FOUND; a known path with another method answers 405 with an Allow header.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(Object.values(paths).flatMap((p) => Object.values(p).flatMap((op) => (op as { tags: string[] }).tags)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Clerk session token (RS256). Staff routes need the claim metadata.role = \"admin\"." },
      },
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
                code: { type: "string", enum: Object.keys(ERROR_CODES) },
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
      "x-error-codes": Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v])),
    },
  };
  cache.set(kind, doc);
  return doc;
}
