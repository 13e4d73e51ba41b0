import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's market page (/admin/market) in headless Chromium: the price alerts' load (the most watched
// cards), trades filtered by status, and voiding an open trade (a reason required; then its proposer is told).
// The browser tests' database is not seeded: cards, alerts and trades are inserted directly.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/market`))!.status()).toBe(403);
  await context.close();
});

it("shows the most watched cards, filters trades, and voids an open trade with a reason", async () => {
  const team = await db.team.create({ data: { id: `tm_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Market Testers" } });
  const card = await db.collectibleCard.create({
    data: { id: `cc_e2e_${uid()}`, kind: "team", teamId: team.id, name: `Watched card ${uid()}`, rarity: "epic", editionSize: 100 },
  });
  const fans = await Promise.all(
    [0, 1, 2].map((i) => db.user.create({ data: { externalId: `user_fan${uid()}`, handle: `trader${i}${uid()}`, handleKey: `trader${i}${uid()}` } })),
  );
  for (const f of fans) await db.priceAlert.create({ data: { userId: f.id, cardId: card.id, maxPrice: 5_000 } });
  const open = await db.trade.create({ data: { proposerId: fans[0]!.id, recipientId: fans[1]!.id, gift: true, expiresAt: new Date(Date.now() + 3_600_000) } });
  const declined = await db.trade.create({
    data: { proposerId: fans[1]!.id, recipientId: fans[2]!.id, status: "declined", closedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) },
  });

  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/market`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Market");
  expect(await page.locator(`tr[data-card="${card.id}"] [data-testid=alert-count]`).textContent()).toBe("3");

  await page.goto(`${baseUrl}/admin/market?status=declined`);
  expect(await page.locator(`tr[data-trade="${declined.id}"] [data-testid=status]`).textContent()).toBe("declined");
  expect(await page.locator(`tr[data-trade="${open.id}"]`).count()).toBe(0);

  await page.goto(`${baseUrl}/admin/market?status=open`);
  const form = page.getByRole("form", { name: `Void trade ${open.id}` });
  // The reason is required: the browser does not submit without it.
  await form.getByRole("button", { name: "Void" }).click();
  expect((await db.trade.findUniqueOrThrow({ where: { id: open.id } })).status).toBe("open");
  await form.locator("[name=reason]").fill("Reported as a scam");
  await Promise.all([page.waitForURL(/\/admin\/market\?/), form.getByRole("button", { name: "Void" }).click()]);
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Trade voided");
  expect(await db.trade.findUniqueOrThrow({ where: { id: open.id } })).toMatchObject({ status: "void", voidReason: "TRADE_VOIDED_BY_STAFF" });
  expect(await db.notification.count({ where: { userId: fans[0]!.id, type: "TRADE_UPDATE" } })).toBe(1);
  expect(await db.auditEntry.findMany({ where: { targetType: "trade", targetId: open.id } })).toEqual([
    expect.objectContaining({ action: "trade.void", actorRole: "admin", note: "Reported as a scam", after: expect.objectContaining({ status: "void" }) }),
  ]);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Market" }).isVisible()).resolves.toBe(true);
  await context.close();
});
