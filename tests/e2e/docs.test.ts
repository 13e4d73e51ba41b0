import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { launchBrowser } from "./harness";

// The interactive API reference at /docs (Swagger UI bundled into the app) in headless Chromium.

type Operation = { summary: string; parameters?: { name: string; in: string }[] };
type Document = { paths: Record<string, Record<string, Operation>> };

const baseUrl = inject("baseUrl");
const origin = new URL(baseUrl).origin;
/** E2E_SCREENSHOT_DIR=dir saves a screenshot of the reference after a call was tried. */
const screenshotDir = process.env.E2E_SCREENSHOT_DIR;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let doc: Document;
/** Every URL the page requested. */
const requested: string[] = [];

beforeAll(async () => {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on("request", (r) => requested.push(r.url()));
  const response = await page.goto(`${baseUrl}/docs`);
  expect(response!.status()).toBe(200);
  await page.locator(".swagger-ui .opblock").first().waitFor();
});

afterAll(async () => {
  await browser?.close();
});

/** The operation block of `METHOD path` (its summary row is what a reader clicks), scrolled into the rendered rows. */
async function operation(method: string, p: string) {
  const op = page
    .locator(`.opblock-${method.toLowerCase()}`)
    .filter({ has: page.locator(`.opblock-summary [data-path="${p}"]`) })
    .first();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 0; step < 400 && (await op.count()) === 0; step++) {
    await page.evaluate(() => window.scrollBy(0, window.innerHeight / 2));
    await page.waitForTimeout(30);
  }
  await op.scrollIntoViewIfNeeded();
  return op;
}

describe("API reference at /docs", () => {
  it("renders every operation of the public document, with the app's own assets only", async () => {
    const expected = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: p, summary: op.summary })),
    );
    expect(expected.length).toBeGreaterThan(50);
    // Tags are open (docExpansion "list"). With 150 or more rows Swagger UI renders only the rows near the viewport,
    // so the page is scrolled from top to bottom and every summary row seen on the way is collected; on a loaded
    // machine a fast scroll can pass rows before they render, so up to three passes collect what the last one missed.
    const rendered = new Map<string, { method?: string; path?: string | null; summary?: string }>();
    const missingNow = () => expected.filter((e) => rendered.get(`${e.method} ${e.path}`)?.summary !== e.summary);
    for (let pass = 0; pass < 3 && missingNow().length > 0; pass++) {
      await page.evaluate(() => window.scrollTo(0, 0));
      for (let step = 0; step < 600; step++) {
        const rows = await page.locator(".opblock-summary").evaluateAll((rows) =>
          rows.map((row) => ({
            method: row.querySelector(".opblock-summary-method")?.textContent?.trim(),
            // (a deprecated operation's path has the class opblock-summary-path__deprecated)
            path: row.querySelector("[data-path]")?.getAttribute("data-path"),
            summary: row.querySelector(".opblock-summary-description")?.textContent?.trim(),
          })),
        );
        for (const row of rows) rendered.set(`${row.method} ${row.path}`, row);
        const atBottom = await page.evaluate(() => {
          const before = window.scrollY;
          window.scrollBy(0, window.innerHeight / 2);
          return window.scrollY === before;
        });
        if (atBottom) break;
        await page.waitForTimeout(30 * (pass + 1));
      }
    }
    const missing = missingNow();
    expect(missing).toEqual([]);

    // Nothing came from a CDN or any other host: scripts, styles, fonts, the document.
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !/^(data|blob):/.test(u))).toEqual([]);
    expect(requested).toContain(`${origin}/api/openapi.json`);
    // The page still may not be framed.
    const headers = (await page.request.get(`${baseUrl}/docs`)).headers();
    expect(headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(headers["x-frame-options"]).toBe("DENY");
  });

  it("shows an operation's parameters and its response schema", async () => {
    const op = await operation("GET", "/api/teams/search");
    await op.locator(".opblock-summary").first().click();
    const parameters = op.locator(".parameters");
    await parameters.waitFor();
    const names = doc.paths["/api/teams/search"]!.get!.parameters!.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["q", "limit", "cursor"]));
    for (const name of names) {
      await expect(parameters.locator(`tr[data-param-name="${name}"] .parameter__name`).textContent()).resolves.toContain(name);
    }
    await expect(parameters.locator('tr[data-param-name="q"] .parameter__in').textContent()).resolves.toContain("query");

    const ok = op.locator('.responses-wrapper tr.response[data-code="200"]');
    await expect(ok.locator(".response-col_description").textContent()).resolves.toContain("Success");
    // The response schema (JSON Schema 2020-12 view): the envelope and its properties.
    await ok.getByRole("tab", { name: "Schema" }).click();
    const schema = ok.locator(".json-schema-2020-12").first();
    await schema.waitFor();
    await expect(schema.textContent()).resolves.toMatch(/success[\s\S]*data/);
    // Error responses are documented with their codes.
    await expect(op.locator('.responses-wrapper tr.response[data-code="400"]').textContent()).resolves.toContain("VALIDATION_ERROR");
  });

  it("tries GET /api/user with a pasted token and shows the answer", async () => {
    const token = signSessionToken(inject("privateKey"), `user_docs${randomUUID().replace(/-/g, "").slice(0, 12)}`);
    const me = (await (await fetch(`${baseUrl}/api/user`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { id: string } };

    // Without a token first: the reference shows the API's 401 error body.
    const op = await operation("GET", "/api/user");
    await op.locator(".opblock-summary").first().click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    const live = op.locator(".live-responses-table .response").first();
    await expect(live.locator(".response-col_status").textContent()).resolves.toContain("401");
    await expect(live.locator(".response-col_description").textContent()).resolves.toContain("UNAUTHORIZED");

    // Paste the token under "Authorize".
    await page.locator(".auth-wrapper .btn.authorize").click();
    const dialog = page.locator(".dialog-ux .modal-ux");
    const bearer = dialog.locator("form").filter({ hasText: "bearerAuth" }); // the webhook's signature scheme is listed too
    await bearer.locator('input[type="text"], input[type="password"]').first().fill(token);
    await bearer.getByRole("button", { name: "Apply credentials" }).click();
    await bearer.getByRole("button", { name: "Remove authorization" }).waitFor();
    await dialog.getByRole("button", { name: "Close" }).first().click();

    const sent = page.waitForRequest((r) => r.url() === `${origin}/api/user` && r.method() === "GET");
    await op.getByRole("button", { name: "Execute" }).click();
    expect((await sent).headers()["authorization"]).toBe(`Bearer ${token}`);
    await expect.poll(() => live.locator(".response-col_status").textContent()).toContain("200");
    const body = await live.locator(".response-col_description").textContent();
    expect(body).toContain(`"id": "${me.data.id}"`);
    expect(body).toContain('"success": true');

    if (screenshotDir) {
      mkdirSync(screenshotDir, { recursive: true });
      await op.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(screenshotDir, "docs.png") });
    }
  });
});
