import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../app/api/routes.generated";
import { internalOpenApiDocument as internalOf, isInternal, openApiDocument as publicOf, routeConfigs } from "../../lib/operations/openapi/document";
import { FEATURES } from "../../lib/features/config/schemas";
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

// Kill switches (docs/decisions/0049, 0066): every write of a feature's domain declares that feature, so pausing it
// stops everything that creates, changes or pays for something there. A domain is a path prefix (whole segments);
// the longest prefix wins. The writes of a domain that stay open while it is paused are listed here, each with why.
const FEATURE_DOMAINS: [prefix: string, feature: string][] = [
  ["/api/v1/marketplace", "marketplace"],
  ["/api/v1/marketplace/trades", "trades"],
  ["/api/v1/packs", "packs"],
  ["/api/packs", "packs"],
  ["/api/v1/drops", "packs"],
  ["/api/v1/wallet/topups", "topups"],
  ["/api/v1/wallet/iap", "topups"],
  ["/api/locker-room", "posting"],
  ["/api/upload/locker-media", "posting"],
];
const EXIT = "an exit: cancelling, declining, withdrawing or deleting stays open while paused";
const SAFETY = "a safety tool (report, hide, mute, limit replies, detach a quote): never pausable";
const PERSONAL = "the fan's own list or setting: moves nothing, pays nothing, publishes nothing";
const INTERACTION = "an interaction without content: the posting switch pauses writing, not reacting";
const NOT_PAUSED: Record<string, string> = {
  "DELETE /api/v1/marketplace/listings/{listingId}": EXIT,
  "POST /api/v1/marketplace/offers/{offerId}/decline": EXIT,
  "POST /api/v1/marketplace/offers/{offerId}/cancel": EXIT,
  "DELETE /api/v1/marketplace/cart/items/{listingId}": EXIT,
  "POST /api/v1/marketplace/trades/{tradeId}/cancel": EXIT,
  "POST /api/v1/marketplace/trades/{tradeId}/decline": EXIT,
  "DELETE /api/v1/drops/{dropId}/entry": EXIT,
  "DELETE /api/locker-room/{postId}": EXIT,
  "DELETE /api/locker-room/scheduled/{postId}": EXIT,
  "DELETE /api/locker-room/{postId}/comments/{commentId}": EXIT,
  "DELETE /api/locker-room/{postId}/repost": EXIT,
  "POST /api/v1/marketplace/listings/{listingId}/report": SAFETY,
  "POST /api/locker-room/{postId}/report": SAFETY,
  "POST /api/locker-room/{postId}/comments/{commentId}/report": SAFETY,
  "POST /api/locker-room/{postId}/comments/{commentId}/hide": SAFETY,
  "PUT /api/locker-room/{postId}/mute": SAFETY,
  "DELETE /api/locker-room/{postId}/mute": SAFETY,
  "PUT /api/locker-room/{postId}/interaction-policy": SAFETY,
  "POST /api/locker-room/{postId}/quotes/{quotePostId}/detach": SAFETY,
  "POST /api/v1/marketplace/wishlist": PERSONAL,
  "DELETE /api/v1/marketplace/wishlist/{itemId}": PERSONAL,
  "POST /api/v1/marketplace/alerts": PERSONAL,
  "DELETE /api/v1/marketplace/alerts/{alertId}": PERSONAL,
  "PUT /api/v1/marketplace/offer-settings": PERSONAL,
  "PUT /api/locker-room/{postId}/bookmark": PERSONAL,
  "DELETE /api/locker-room/{postId}/bookmark": PERSONAL,
  "PUT /api/locker-room/{postId}/reaction": INTERACTION,
  "DELETE /api/locker-room/{postId}/reaction": INTERACTION,
  "POST /api/locker-room/{postId}/poll/votes": INTERACTION,
  "PUT /api/locker-room/{postId}/pin": INTERACTION,
  "DELETE /api/locker-room/{postId}/pin": INTERACTION,
  "POST /api/v1/wallet/iap/apple": "a store purchase already paid on the device: always credited, so money is never taken without coins",
  "POST /api/v1/wallet/iap/google": "a store purchase already paid on the device: always credited, so money is never taken without coins",
  "PUT /api/packs/{id}/purchase": "removed in contract 1.0.0: always 410, changes nothing",
  "PUT /api/upload/locker-media/direct/{uploadId}":
    "the byte transfer of an upload already started, authorised by its one-time token (no user to scope by); starting and completing it are paused",
};

describe("kill switches cover their domains", () => {
  const domainOf = (p: string) =>
    FEATURE_DOMAINS.filter(([prefix]) => p === prefix || p.startsWith(`${prefix}/`)).sort((a, b) => b[0].length - a[0].length)[0]?.[1];
  const READS = new Set(["GET", "HEAD", "OPTIONS"]);
  const fanRoutes = routeConfigs(ROUTES).filter(({ path: p }) => !/^\/api\/(admin|cron|webhooks)\//.test(p));

  it("every write of a feature's domain declares that feature, unless listed as staying open (with a reason)", () => {
    const missing: string[] = [];
    for (const { path: p, method, handler } of fanRoutes) {
      const feature = domainOf(p);
      const key = `${method} ${p}`;
      if (READS.has(method) || !feature) continue;
      if (key in NOT_PAUSED) expect(handler.config.feature, `${key} is listed as staying open`).toBeUndefined();
      else if (handler.config.feature !== feature) missing.push(`${key} (declares ${handler.config.feature ?? "none"}, its domain is ${feature})`);
    }
    expect(missing).toEqual([]);
  });

  it("reads never declare a feature, a declared feature is its domain's, and every listed exception is a real write of a domain", () => {
    for (const { path: p, method, handler } of routeConfigs(ROUTES)) {
      if (!handler.config.feature) continue;
      expect(READS.has(method), `${method} ${p}`).toBe(false);
      expect(domainOf(p), `${method} ${p} declares ${handler.config.feature}`).toBe(handler.config.feature);
    }
    const writes = new Set(fanRoutes.filter(({ method, path: p }) => !READS.has(method) && domainOf(p)).map(({ method, path: p }) => `${method} ${p}`));
    for (const key of Object.keys(NOT_PAUSED)) expect(writes.has(key), key).toBe(true);
    expect([...new Set(FEATURE_DOMAINS.map(([, f]) => f))].sort()).toEqual([...FEATURES].sort());
  });
});

describe("one writer per shared table", () => {
  const LIB = path.join(process.cwd(), "lib");
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return full === path.join(LIB, "generated") ? [] : sources(full);
      return /\.tsx?$/.test(name) ? [full] : [];
    });

  it("only lib/core/notifications inserts into notifications: producers call its writer (lib/core/notifications/writes.ts)", () => {
    const writers = sources(LIB)
      .filter((file) => /INSERT\s+INTO\s+"?notifications"?(?![\w"])/i.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(process.cwd(), file).split(path.sep).join("/"));
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((file) => !file.startsWith("lib/core/notifications/"))).toEqual([]);
  });

  it("the push outbox is filled by its trigger on notifications only, and only lib/core/push moves its rows (the erasure deletes a fan's)", () => {
    const files = (pattern: RegExp) =>
      sources(LIB)
        .filter((file) => pattern.test(readFileSync(file, "utf8")))
        .map((file) => path.relative(process.cwd(), file).split(path.sep).join("/"));
    expect(files(/INSERT\s+INTO\s+"?push_outbox"?(?![\w"])/i)).toEqual([]);
    const updaters = files(/UPDATE\s+"?push_outbox"?(?![\w"])/i);
    expect(updaters.length).toBeGreaterThan(0);
    expect(updaters.filter((file) => !file.startsWith("lib/core/push/"))).toEqual([]);
    expect(
      files(/DELETE\s+FROM\s+"?push_outbox"?(?![\w"])/i).filter((file) => !file.startsWith("lib/core/push/") && !file.startsWith("lib/operations/erasure/")),
    ).toEqual([]);
  });
});
