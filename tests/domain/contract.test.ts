import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../app/api/routes.generated";
import { internalOpenApiDocument as internalOf, isInternal, openApiDocument as publicOf, routeConfigs } from "../../lib/openapi/document";
import { REGISTRY_FILE, registrySource } from "../../scripts/routes.mjs";

const openApiDocument = () => publicOf(ROUTES);
const internalOpenApiDocument = () => internalOf(ROUTES);

const API = path.join(process.cwd(), "app", "api");
// Routes that are infrastructure, not operations: the JSON 404 catch-all and the documents themselves.
const NOT_OPERATIONS = new Set(["/api/{...path}", "/api/openapi.json", "/api/admin/openapi.json"]);

function routeFiles(dir = API): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const toOpenApiPath = (file: string) =>
  "/" +
  path
    .relative(path.join(process.cwd(), "app"), path.dirname(file))
    .split(path.sep)
    .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
    .join("/");

describe("contract", () => {
  it("the route registry (app/api/routes.generated.ts) is what scripts/routes.mjs writes from app/api: run `npm run routes`", () => {
    const committed = readFileSync(path.join(process.cwd(), REGISTRY_FILE), "utf8");
    expect(registrySource(process.cwd(), committed)).toBe(committed);
  });

  it("every route file has OpenAPI operations and every operation has a route file", () => {
    const files = routeFiles()
      .map(toOpenApiPath)
      .filter((p) => !NOT_OPERATIONS.has(p))
      .sort();
    expect(ROUTES.map((r) => r.path).sort()).toEqual(files);
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const internal = internalOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set([...Object.keys(doc.paths), ...Object.keys(internal.paths)].filter((p) => !NOT_OPERATIONS.has(p)));
    expect([...documented].sort()).toEqual(files);
  });

  it("staff and cron routes stay out of the public contract, and only they and providers' webhooks are internal", () => {
    const doc = openApiDocument() as { paths: Record<string, unknown> };
    const internal = internalOpenApiDocument() as { paths: Record<string, unknown> };
    for (const p of Object.keys(doc.paths)) expect(p).not.toMatch(/^\/api\/(admin|cron)\//);
    for (const p of Object.keys(internal.paths)) expect(p).toMatch(/^\/api\/(admin|cron|webhooks)\//);
    // Each operation is in exactly one document, the one its config names (isInternal).
    for (const { path: p, method, handler } of routeConfigs(ROUTES)) {
      const [inside, outside] = isInternal(handler.config) ? [internal, doc] : [doc, internal];
      expect((inside.paths[p] as Record<string, unknown> | undefined)?.[method.toLowerCase()], `${method} ${p}`).toBeDefined();
      expect((outside.paths[p] as Record<string, unknown> | undefined)?.[method.toLowerCase()], `${method} ${p}`).toBeUndefined();
    }
  });

  it("every cron route (auth cron) is scheduled in vercel.json, and vercel.json schedules only cron routes", () => {
    const cronRoutes = routeConfigs(ROUTES)
      .filter(({ handler }) => handler.config.auth === "cron")
      .map(({ path: p }) => p);
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string }[] };
    expect(crons.map((c) => c.path).sort()).toEqual([...new Set(cronRoutes)].sort());
  });

  it("every exported method of a route module is a declared route, and the documents list exactly those", () => {
    for (const kind of ["public", "internal"] as const) {
      const doc = (kind === "public" ? openApiDocument() : internalOpenApiDocument()) as {
        paths: Record<string, Record<string, { "x-auth": string; security: unknown[] }>>;
      };
      const declared = routeConfigs(ROUTES, kind);
      const documented = Object.entries(doc.paths)
        .filter(([p]) => !NOT_OPERATIONS.has(p))
        .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
      expect(declared.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented.sort());
      for (const { path: p, method, handler } of declared) {
        const op = doc.paths[p]![method.toLowerCase()]!;
        expect(op["x-auth"]).toBe(handler.config.auth);
        expect(op.security.length > 0).toBe(handler.config.auth !== "public");
      }
    }
  });

  it("every operation whose request the pipeline parses (path, query, body, Idempotency-Key) documents 400 VALIDATION_ERROR and the header", () => {
    // The pipeline's own refusals are implied by the declaration (lib/http/route-errors.ts); the test server catches a
    // domain code a route forgot only when a test exercises it. A route with nothing but an Idempotency-Key once
    // answered an undocumented 400 (POST /api/v1/engage/streak/freezes, issue 44).
    type Op = { responses: Record<string, { description: string }>; parameters: { name: string; in: string; required: boolean }[] };
    const docs = { public: openApiDocument(), internal: internalOpenApiDocument() } as unknown as Record<string, { paths: Record<string, Record<string, Op>> }>;
    let idempotent = 0;
    for (const kind of ["public", "internal"] as const) {
      for (const { path: p, method, handler } of routeConfigs(ROUTES, kind)) {
        const c = handler.config;
        const op = docs[kind]!.paths[p]![method.toLowerCase()]!;
        const where = `${method} ${p}`;
        if (c.params || c.query || c.body || c.idempotency) expect(op.responses["400"]?.description, where).toMatch(/VALIDATION_ERROR/);
        const header = op.parameters.find((x) => x.name === "Idempotency-Key" && x.in === "header");
        if (c.idempotency) {
          idempotent++;
          expect(header, where).toMatchObject({ required: c.idempotency === "required" });
        } else expect(header, where).toBeUndefined();
      }
    }
    expect(idempotent).toBeGreaterThan(10);
  });

  it("the document is OpenAPI 3.1 at contract version 1.0.0 with the shared error schema", () => {
    const doc = openApiDocument() as { openapi: string; info: { version: string }; components: { schemas: { Error: unknown } } };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.components.schemas.Error).toBeDefined();
  });
});

describe("OpenAPI references", () => {
  it("every $ref resolves inside the document, and named schemas live in components", () => {
    const doc = openApiDocument() as Record<string, unknown> & { components: { schemas: Record<string, unknown> } };
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice("#/components/schemas/".length)], ref).toBeDefined();
    }
    expect(JSON.stringify(doc)).not.toContain("$defs");
    expect(doc.components.schemas.StarredTeam).toBeDefined();
  });
});
