import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The console's dashboard (/admin) in headless Chromium: charts drawn by recharts from the rollups the
// console-rollups cron wrote, the table of numbers beside each chart, the range switch, no console errors.

const baseUrl = inject("baseUrl");
const cronSecret = (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const { db, browser } = browserSuite();
const STAFF = `user_staff${randomUUID().slice(0, 8)}`;
const DAY = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
const D = dayAgo(5);

async function plant() {
  const userId = randomUUID();
  await db.user.create({ data: { id: userId, externalId: `user_dash${randomUUID().slice(0, 8)}`, createdAt: new Date(`${D}T09:00:00Z`) } });
  for (const amount of [40, 2, -7])
    await db.repEntry.create({
      data: { userId, source: "serviceDirect", amount, reason: "e2e", earnKind: "e2e", grantKey: `e2e:${randomUUID()}`, createdAt: new Date(`${D}T10:00:00Z`) },
    });
  await db.post.create({ data: { authorId: userId, content: "dashboard e2e", publishAt: new Date(`${D}T11:00:00Z`) } });
}

async function rollups(days: number) {
  const res = await fetch(`${baseUrl}/api/cron/console-rollups?days=${days}`, { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(res.status).toBe(200);
}

/** The dashboard at `range`, with every console message of type error and every page error collected. */
async function open(page: Page, range?: number) {
  const errors: string[] = [];
  // The browser's own request for /favicon.ico (the app has none) is not the page's.
  page.on("console", (m) => m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && errors.push(`${m.text()} (${m.location().url})`));
  page.on("pageerror", (e) => errors.push(e.message));
  const response = await page.goto(`${baseUrl}/admin${range ? `?range=${range}` : ""}`);
  expect(response!.status()).toBe(200);
  return errors;
}

const bodyRows = (page: Page, chart: string) => page.getByTestId(`chart-${chart}`).locator("table tbody tr");

describe("staff console: dashboard", () => {
  it("shows charts and their tables from the rollups, switches range, logs no errors and passes axe", { timeout: 180_000 }, async () => {
    await plant();
    await rollups(7);
    const [expected] = await db.$queryRaw<{ issued: bigint; spent: bigint; posts: bigint }[]>`
      SELECT (SELECT sum(amount) FROM rep_entries WHERE amount > 0 AND (created_at AT TIME ZONE 'UTC')::date = ${D}::date) AS issued,
             (SELECT -sum(amount) FROM rep_entries WHERE amount < 0 AND (created_at AT TIME ZONE 'UTC')::date = ${D}::date) AS spent,
             (SELECT count(*) FROM posts WHERE (publish_at AT TIME ZONE 'UTC')::date = ${D}::date) AS posts`;

    const { context, page } = await signedIn(browser(), STAFF, true);
    const errors = await open(page, 30);
    // The counts and the sync section the console always had.
    await expect(page.getByTestId("count-users").textContent()).resolves.toMatch(/^\d+$/);
    await expect(page.getByTestId("last-sync").count()).resolves.toBe(1);

    // Nine charts, each an image with a summary and recharts' SVG drawn in it, each with a 30-row table.
    const charts = page.locator("section[data-testid^=chart-]");
    await expect(charts.count()).resolves.toBe(9);
    await page.locator('[role="img"] svg.recharts-surface').first().waitFor();
    for (let i = 0; i < 9; i++) {
      const chart = charts.nth(i);
      await expect(chart.locator('[role="img"]').getAttribute("aria-label")).resolves.toMatch(/chart over the last 30 days\. .+: (latest|no data)/);
      await expect(chart.locator(".recharts-wrapper > svg.recharts-surface").count()).resolves.toBe(1);
      await expect(chart.locator("table caption").textContent()).resolves.toMatch(/last 30 days/);
      await expect(chart.locator("table tbody tr").count()).resolves.toBe(30);
    }
    // The lines are drawn (a path per series) and the legend names them in text.
    await expect(page.getByTestId("chart-rep").locator(".recharts-line-curve").count()).resolves.toBe(2);
    await expect(page.getByTestId("chart-rep").locator(".recharts-legend-wrapper").textContent()).resolves.toMatch(/Rep issued.*Rep spent/);
    await expect(page.getByTestId("chart-community").locator(".recharts-bar-rectangle").count()).resolves.toBeGreaterThan(0);

    // The table holds the day's numbers as the raw tables do.
    const repRow = page.getByTestId("chart-rep").locator("tbody tr", { has: page.locator(`th:text-is("${D}")`) });
    await expect(repRow.locator("td").allTextContents()).resolves.toEqual([
      Number(expected!.issued).toLocaleString("en-US"),
      Number(expected!.spent).toLocaleString("en-US"),
    ]);
    const postsRow = page.getByTestId("chart-community").locator("tbody tr", { has: page.locator(`th:text-is("${D}")`) });
    await expect(postsRow.locator("td").first().textContent()).resolves.toBe(Number(expected!.posts).toLocaleString("en-US"));
    await expect(page.getByTestId("cron-jobs").textContent()).resolves.toMatch(/\/api\/cron\/console-rollups/);

    // The range switch: 7 and 90 days.
    await page.getByRole("link", { name: "Last 7 days" }).click();
    await page.waitForURL(/range=7/);
    await expect(bodyRows(page, "fans").count()).resolves.toBe(7);
    await expect(page.getByRole("link", { name: "Last 7 days" }).getAttribute("aria-current")).resolves.toBe("page");
    await expect(
      page
        .getByTestId("chart-rep")
        .locator("tbody tr", { has: page.locator(`th:text-is("${D}")`) })
        .count(),
    ).resolves.toBe(1);
    await page.getByRole("link", { name: "Last 90 days" }).click();
    await page.waitForURL(/range=90/);
    await expect(bodyRows(page, "fans").count()).resolves.toBe(90);
    await page.locator('[role="img"] svg.recharts-surface').first().waitFor();

    // The console's navigation (the layout's, shared by every page) is checked by the console-wide accessibility test.
    const axe = await new AxeBuilder({ page }).exclude('nav[aria-label="Console"]').analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    ).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("falls back to 30 days for an unknown range", async () => {
    const { context, page } = await signedIn(browser(), STAFF, true);
    const errors = await open(page);
    await expect(bodyRows(page, "fans").count()).resolves.toBe(30);
    await page.goto(`${baseUrl}/admin?range=12`);
    await expect(bodyRows(page, "fans").count()).resolves.toBe(30);
    expect(errors).toEqual([]);
    await context.close();
  });
});
