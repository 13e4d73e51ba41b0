import { randomUUID } from "node:crypto";
import type { Page } from "playwright";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's live page (/admin/live) in headless Chromium: a pasted provider batch and a fixture replayed
// through the live webhook's own service, confirmed by typing REPLAY (a wrong confirmation replays nothing), each
// replay audited, a second replay a no-op. The browser tests' database is not seeded: games of their own.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);

async function game() {
  const key = uid();
  const leagueId = `lg_e2e_live_${key}`;
  const [home, away, id] = [`tm_e2e_lh_${key}`, `tm_e2e_la_${key}`, `gm_e2e_live_${key}`];
  await db.league.create({ data: { id: leagueId, slug: `e2e-live-${key}`, name: `Live ${key}`, sport: "football" } });
  await db.team.createMany({
    data: [
      { id: home, slug: `e2e-lh-${key}`, name: `Home ${key}`, leagueId },
      { id: away, slug: `e2e-la-${key}`, name: `Away ${key}`, leagueId },
    ],
  });
  await db.game.create({ data: { id, leagueId, homeTeamId: home, awayTeamId: away, startsAt: new Date(Date.now() + 60_000), status: "scheduled" } });
  return { id, home, away };
}

async function replay(page: Page, values: { source: "paste" | "fixture"; feed?: string; gameId?: string; confirm: string }) {
  await page.goto(`${baseUrl}/admin/live`);
  const form = page.getByRole("form", { name: "Replay a feed" });
  await form.locator(`input[name=source][value=${values.source}]`).check();
  if (values.feed !== undefined) await form.locator("[name=feed]").fill(values.feed);
  if (values.gameId !== undefined) await form.locator("[name=gameId]").fill(values.gameId);
  await form.locator("[name=confirm]").fill(values.confirm);
  await Promise.all([page.waitForURL(/\/admin\/live\?/), form.getByRole("button", { name: "Replay" }).click()]);
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/live`))!.status()).toBe(403);
  await context.close();
});

it("replays a pasted batch and a fixture, confirmed and audited; a replay of the same events is a no-op", async () => {
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  const g = await game();
  const feed = JSON.stringify({
    events: [
      { id: `${g.id}-k`, gameId: g.id, seq: 1, type: "kickoff", minute: 0 },
      { id: `${g.id}-g`, gameId: g.id, seq: 2, type: "goal", minute: 5, teamId: g.home },
    ],
  });

  await replay(page, { source: "paste", feed, confirm: "yes" });
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Type REPLAY to confirm");
  expect(await db.gameEvent.count({ where: { gameId: g.id } })).toBe(0);

  await replay(page, { source: "paste", feed: "{ not json", confirm: "REPLAY" });
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("not a valid batch");

  await replay(page, { source: "paste", feed, confirm: "REPLAY" });
  await expect(page.getByTestId("replay-result").textContent()).resolves.toContain("2 applied, 0 already received, 0 refused");
  expect(await db.game.findUniqueOrThrow({ where: { id: g.id }, select: { status: true, homeScore: true, awayScore: true } })).toEqual({
    status: "live",
    homeScore: 1,
    awayScore: 0,
  });
  await replay(page, { source: "paste", feed, confirm: "REPLAY" });
  await expect(page.getByTestId("replay-result").textContent()).resolves.toContain("0 applied, 2 already received");

  // The fixture: a home goal, an away goal voided by an amendment, a penalty, full time.
  const f = await game();
  await replay(page, { source: "fixture", gameId: f.id, confirm: "REPLAY" });
  await expect(page.getByTestId("replay-result").textContent()).resolves.toContain(`8 applied`);
  expect(await db.game.findUniqueOrThrow({ where: { id: f.id }, select: { status: true, homeScore: true, awayScore: true } })).toEqual({
    status: "final",
    homeScore: 2,
    awayScore: 0,
  });
  expect(await db.gameEvent.findUniqueOrThrow({ where: { eventId: `${f.id}:goal-2` }, select: { voided: true, amendedBy: true } })).toEqual({
    voided: true,
    amendedBy: `${f.id}:var-1`,
  });
  await replay(page, { source: "fixture", gameId: `gm_missing_${uid()}`, confirm: "REPLAY" });
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("No such game");

  const audited = await db.auditEntry.findMany({
    where: { action: "live.replay", targetId: { in: [`pasted:${g.id}`, `fixture:match:${f.id}`] } },
    orderBy: { id: "asc" },
  });
  expect(audited.map((a) => a.targetId)).toEqual([`pasted:${g.id}`, `pasted:${g.id}`, `fixture:match:${f.id}`]);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Live" }).isVisible()).resolves.toBe(true);
  await context.close();
});
