import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { internalOpenApiDocument, openApiDocument, routeConfigs } from "../../lib/openapi/document";
import { INTERNAL_ROUTE_MODULES, ROUTE_MODULES } from "../../lib/openapi/routes";

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
  it("every route file has OpenAPI operations and every operation has a route file", () => {
    const files = routeFiles()
      .map(toOpenApiPath)
      .filter((p) => !NOT_OPERATIONS.has(p))
      .sort();
    expect([...Object.keys(ROUTE_MODULES), ...Object.keys(INTERNAL_ROUTE_MODULES)].sort()).toEqual(files);
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const internal = internalOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const documented = [...Object.keys(doc.paths), ...Object.keys(internal.paths)].filter((p) => !NOT_OPERATIONS.has(p));
    expect(documented.sort()).toEqual(files);
  });

  it("staff and cron routes stay out of the public contract", () => {
    const doc = openApiDocument() as { paths: Record<string, unknown> };
    for (const p of Object.keys(doc.paths)) expect(p).not.toMatch(/^\/api\/(admin|cron)\//);
    for (const p of Object.keys(INTERNAL_ROUTE_MODULES)) expect(p).toMatch(/^\/api\/(admin|cron)\//);
  });

  it("every exported method of a route module is a declared route, and the document lists exactly those", () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { "x-auth": string; security: unknown[] }>> };
    const declared = routeConfigs();
    const documented = Object.entries(doc.paths)
      .filter(([p]) => !NOT_OPERATIONS.has(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(declared.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented.sort());
    for (const { path: p, method, handler } of declared) {
      const op = doc.paths[p]![method.toLowerCase()]!;
      expect(op["x-auth"]).toBe(handler.config.auth);
      expect(op.security.length > 0).toBe(handler.config.auth !== "public");
    }
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
