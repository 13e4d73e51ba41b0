import { randomUUID } from "node:crypto";
import type { Page } from "playwright";
import { beforeAll, expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's contests page (/admin/contests) in headless Chromium: a contest created through its form
// (validated by the API's own schema; unconfirmed or invalid refused, nothing created), listed with its state, and
// audited. The browser tests' database is not seeded: a league, teams and a game of their own.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);
const GAME = `gm_e2e_${uid()}`;

beforeAll(async () => {
  const league = await db.league.create({ data: { id: `lg_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Contest League", sport: "football" } });
  const home = await db.team.create({ data: { id: `tm_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Contest Home", leagueId: league.id } });
  const away = await db.team.create({ data: { id: `tm_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Contest Away", leagueId: league.id } });
  await db.game.create({
    data: { id: GAME, leagueId: league.id, homeTeamId: home.id, awayTeamId: away.id, startsAt: new Date(Date.now() + 5 * 3_600_000), status: "scheduled" },
  });
});

async function submit(page: Page, values: Record<string, string>, confirm: boolean) {
  await page.goto(`${baseUrl}/admin/contests`);
  const form = page.getByRole("form", { name: "Create a contest" });
  for (const [name, value] of Object.entries(values)) await form.locator(`[name=${name}]`).fill(value);
  if (confirm) await form.locator("[name=confirm]").check();
  await Promise.all([page.waitForURL(/\/admin\/contests\?/), form.getByRole("button", { name: "Create contest" }).click()]);
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/contests`))!.status()).toBe(403);
  await context.close();
});

it("creates a contest through the form once confirmed, refusing an invalid or unconfirmed one; audited", async () => {
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  const title = `Sunday contest ${uid()}`;
  const values = { title, gameIds: GAME, slots: "QB, RB/WR, *", rarityCap: "legendary=1", prizes: "100, 50, 20" };

  await submit(page, values, false);
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Tick the confirmation");
  await submit(page, { ...values, gameIds: "gm_nope" }, true);
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Games are game ids");
  await submit(page, { ...values, slots: "Q B" }, true);
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Slots are positions");
  expect(await db.contest.count({ where: { title } })).toBe(0);

  await submit(page, values, true);
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Contest created");
  const created = await db.contest.findFirstOrThrow({ where: { title } });
  expect(created).toMatchObject({ lineupSize: 3, slots: ["QB", "RB/WR", "*"], prizes: [100, 50, 20], rarityCap: { legendary: 1 } });
  const row = page.locator(`tr[data-contest="${created.id}"]`);
  expect(await row.locator("[data-testid=status]").textContent()).toBe("open");
  expect(await row.locator("[data-testid=prizes]").textContent()).toBe("100 / 50 / 20");
  const audited = await db.auditEntry.findMany({ where: { targetId: created.id } });
  expect(audited.map((a) => a.action)).toEqual(["contest.create"]);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Contests" }).isVisible()).resolves.toBe(true);
  await context.close();
});
