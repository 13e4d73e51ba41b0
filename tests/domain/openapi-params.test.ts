import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { ROUTES } from "../../app/api/routes.generated";
import { internalOpenApiDocument, openApiDocument, routeConfigs } from "../../lib/operations/openapi/document";

// Path and query values arrive as strings; the document must describe what a client sends, so a parameter the
// pipeline turns into a number or boolean is documented as one (a generated client then types it that way).

type Param = { name: string; in: string; schema: { type?: string } & Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, { parameters: Param[] }>> };

const SAMPLES = ["0", "1", "7", "20", "50", "100", "true", "false"];
const JSON_TYPE = { number: ["integer", "number"], boolean: ["boolean"] } as Record<string, string[]>;

describe("OpenAPI parameters", () => {
  it("a path or query parameter the pipeline parses into a number or boolean is documented as one, and only then", () => {
    const cases = [
      { doc: openApiDocument(ROUTES) as Doc, routes: routeConfigs(ROUTES, "public") },
      { doc: internalOpenApiDocument(ROUTES) as Doc, routes: routeConfigs(ROUTES, "internal") },
    ];
    let checked = 0;
    for (const { doc, routes } of cases) {
      for (const { path, method, handler } of routes) {
        const parameters = doc.paths[path]![method.toLowerCase()]!.parameters;
        for (const [location, schema] of [
          ["path", handler.config.params],
          ["query", handler.config.query],
        ] as const) {
          const shape = (schema as { shape?: Record<string, ZodType> } | undefined)?.shape ?? {};
          for (const [name, prop] of Object.entries(shape)) {
            const documented = parameters.find((p) => p.name === name && p.in === location)!.schema;
            const parsedAs = new Set<string>(SAMPLES.map((s) => prop.safeParse(s)).flatMap((r) => (r.success ? [typeof r.data] : [])));
            const where = `${method} ${path} ${location}.${name}`;
            for (const kind of ["number", "boolean"]) {
              if (parsedAs.has(kind)) expect(JSON_TYPE[kind], where).toContain(documented.type);
              else expect(JSON_TYPE[kind], where).not.toContain(documented.type);
            }
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("intQuery parameters carry their bounds and default; a limit without a default has none", () => {
    const doc = openApiDocument(ROUTES) as Doc;
    const limit = (path: string) => doc.paths[path]!.get!.parameters.find((p) => p.name === "limit")!;
    expect(limit("/api/teams/search")).toEqual({
      name: "limit",
      in: "query",
      required: false,
      description: "Integer 1..50, default 20.",
      schema: { type: "integer", minimum: 1, maximum: 50, default: 20 },
    });
    expect(limit("/api/v1/engage/rep/ledger").schema).toEqual({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(limit("/api/teams").schema).toEqual({ type: "integer", minimum: 1, maximum: 100 });
  });
});
