import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { consoleSessionToken } from "./harness";

// Nothing staff type into the console's address bar may cause a 5xx: every console page (each page.tsx under
// app/admin, so a new page is covered without touching this test) gets hostile query values and, for dynamic
// segments, hostile ids, as an admin (who may open every page).

const baseUrl = inject("baseUrl");
const cookie = `__session=${consoleSessionToken(`user_console_fuzz_${Date.now()}`, true)}`;

/** The console's page routes, dynamic segments as "[name]". */
function pages(dir = path.join(process.cwd(), "app", "admin"), route = "/admin"): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith("_") ? [] : pages(full, `${route}/${name}`);
    return name === "page.tsx" ? [route] : [];
  });
}

// Every search parameter a console page reads, and more.
const PARAMS = [
  "q",
  "cursor",
  "after",
  "before",
  "status",
  "state",
  "kind",
  "from",
  "to",
  "range",
  "days",
  "actor",
  "action",
  "targetType",
  "targetId",
  "user",
  "post",
  "comment",
  "team",
  "league",
  "run",
  "role",
  "reward",
  "wallet",
  "done",
  "error",
  "page",
  "limit",
  "added",
  "applied",
  "archived",
  "audit",
  "available",
  "duplicates",
  "games",
  "grant",
  "rejected",
  "reports",
  "reviews",
  "appeals",
];
const HOSTILE = ["%00", "a".repeat(600), "-1", "1e309", "NaN", "%E2%80%AE", "..%2F..%2Fetc", "'%20OR%201%3D1%20--", "%F0%9F%92%A5", "!!!%3D%3D"];
const HOSTILE_IDS = ["00000000-0000-0000-0000-000000000000", "not-an-id", "%00", "a".repeat(300), "%E2%80%AE"];

const get = (url: string) => fetch(`${baseUrl}${url}`, { headers: { cookie }, redirect: "manual" });

describe("console pages", () => {
  it("answer hostile query values and ids without a 5xx", { timeout: 240_000 }, async () => {
    const routes = pages();
    expect(routes).toContain("/admin/users/[userId]");
    const urls = routes.flatMap((route) => {
      const concrete = route.includes("[") ? HOSTILE_IDS.map((id) => route.replace(/\[[^\]]+\]/g, id)) : [route];
      return concrete.flatMap((base) => [
        ...HOSTILE.map((value) => `${base}?${PARAMS.map((p) => `${p}=${value}`).join("&")}`),
        `${base}?${PARAMS.map((p) => `${p}=1&${p}=2`).join("&")}`,
      ]);
    });
    const failures: string[] = [];
    for (let i = 0; i < urls.length; i += 4) {
      const batch = urls.slice(i, i + 4);
      const statuses = await Promise.all(batch.map(async (url) => (await get(url)).status));
      statuses.forEach((status, k) => {
        if (status >= 500) failures.push(`${status} ${batch[k]!.slice(0, 160)}`);
      });
    }
    expect(failures).toEqual([]);
  });
});
