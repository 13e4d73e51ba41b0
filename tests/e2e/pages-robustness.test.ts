import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { consoleSessionToken } from "./harness";

// Nothing typed into the address bar may cause a 5xx: every page and route outside /api (each page.tsx and route.ts,
// so a new one is covered without touching this test), the console's first, gets hostile query values and, for
// dynamic segments, hostile ids, as an admin (who may open every page). /api has its own sweep (tests/api/robustness).

const baseUrl = inject("baseUrl");
const cookie = `__session=${consoleSessionToken(`user_pages_fuzz_${Date.now()}`, true)}`;

/** The page and route files under `dir` (but /api's, swept by tests/api/robustness.test.ts), dynamic segments as "[name]". */
function pages(dir = path.join(process.cwd(), "app", "admin"), route = "/admin"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith("_") || route + name === "/api" ? [] : pages(full, `${route === "/" ? "" : route}/${name}`);
    return name === "page.tsx" || name === "route.ts" ? [route] : [];
  });
}

// Every search parameter a page reads, and more.
const PARAMS = [
  ...["q", "cursor", "after", "before", "status", "state", "kind", "from", "to", "range", "days", "actor"],
  ...["action", "targetType", "targetId", "user", "post", "comment", "team", "league", "run", "role", "reward", "wallet"],
  ...["done", "error", "page", "limit", "added", "applied", "archived", "audit", "available", "duplicates", "games", "grant"],
  ...["rejected", "reports", "reviews", "appeals", "redirect_url", "provider", "token"],
];
const HOSTILE = ["%00", "a".repeat(600), "-1", "1e309", "NaN", "%E2%80%AE", "..%2F..%2Fetc", "'%20OR%201%3D1%20--", "%F0%9F%92%A5", "!!!%3D%3D"];
const HOSTILE_IDS = ["00000000-0000-0000-0000-000000000000", "not-an-id", "%00", "a".repeat(300), "%E2%80%AE"];

const get = (url: string) => fetch(`${baseUrl}${url}`, { headers: { cookie }, redirect: "manual" });

/** Every route's URLs: each hostile value in every parameter, and every parameter twice; each hostile id in each segment. */
const hostileUrls = (routes: string[]) =>
  routes.flatMap((route) => {
    const concrete = route.includes("[") ? HOSTILE_IDS.map((id) => route.replace(/\[[^\]]+\]/g, id)) : [route];
    return concrete.flatMap((base) => [
      ...HOSTILE.map((value) => `${base}?${PARAMS.map((p) => `${p}=${value}`).join("&")}`),
      `${base}?${PARAMS.map((p) => `${p}=1&${p}=2`).join("&")}`,
    ]);
  });

/** The URLs answered with a 5xx, four requests at a time. */
async function serverErrors(urls: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < urls.length; i += 4) {
    const batch = urls.slice(i, i + 4);
    const statuses = await Promise.all(batch.map(async (url) => (await get(url)).status));
    statuses.forEach((status, k) => {
      if (status >= 500) failures.push(`${status} ${batch[k]!.slice(0, 160)}`);
    });
  }
  return failures;
}

describe("pages outside /api", () => {
  it("console pages answer hostile query values and ids without a 5xx", { timeout: 240_000 }, async () => {
    const routes = pages();
    expect(routes).toContain("/admin/users/[userId]");
    expect(await serverErrors(hostileUrls(routes))).toEqual([]);
  });

  it("the other pages and routes (docs, account, files, sign-in) too", { timeout: 120_000 }, async () => {
    const routes = pages(path.join(process.cwd(), "app"), "/").filter((r) => !r.startsWith("/admin"));
    expect(routes).toEqual(expect.arrayContaining(["/", "/docs", "/files/[...key]"]));
    expect(await serverErrors(hostileUrls(routes))).toEqual([]);
  });
});
