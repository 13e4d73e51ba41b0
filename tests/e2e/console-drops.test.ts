import { randomUUID } from "node:crypto";
import type { Page } from "playwright";
import { beforeAll, expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's drops page (/admin/drops) in headless Chromium: a drop and a collection challenge created
// through its forms (validated by the API's own schemas: a close before the opening refused, nothing created), both
// listed with their state. The browser tests' database is not seeded: a team, cards and a pack of their own.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);
const PACK = `pk_e2e_${uid()}`;
const CARD = `cc_e2e_${uid()}`;
const REWARD = `cc_e2e_${uid()}`;
/** A datetime-local value `hours` from now (UTC). */
const local = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 16);

beforeAll(async () => {
  const team = await db.team.create({ data: { id: `tm_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Drop Testers" } });
  for (const id of [CARD, REWARD]) {
    await db.collectibleCard.create({ data: { id, kind: "team", teamId: team.id, name: `Drop card ${id}`, rarity: "rare", editionSize: 1_000 } });
  }
  await db.pack.create({ data: { id: PACK, slug: PACK, name: `Drop pack ${uid()}`, price: 25_000, itemsPerPack: 4, stock: 10 } });
  await db.packOddsTable.create({
    data: {
      packId: PACK,
      version: 1,
      weights: { common: 0, rare: 10_000, epic: 0, legendary: 0 },
      pool: { common: [], rare: [CARD], epic: [], legendary: [] },
    },
  });
});

async function submit(page: Page, formName: string, values: Record<string, string>, button: string) {
  await page.goto(`${baseUrl}/admin/drops`);
  const form = page.getByRole("form", { name: formName });
  for (const [name, value] of Object.entries(values)) {
    const input = form.locator(`[name=${name}]`);
    if ((await input.evaluate((el) => el.tagName)) === "SELECT") await input.selectOption(value);
    else await input.fill(value);
  }
  await Promise.all([page.waitForURL(/\/admin\/drops\?/), form.getByRole("button", { name: button }).click()]);
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/drops`))!.status()).toBe(403);
  await context.close();
});

it("creates a drop and a challenge through the forms, refusing an invalid one", async () => {
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  const name = `Friday drop ${uid()}`;
  const drop = { name, packId: PACK, mode: "draw", price: "5000", quantity: "3", perUserCap: "1" };

  await submit(page, "Create a drop", { ...drop, opensAt: local(2), closesAt: local(1) }, "Create drop");
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("The close must be after the opening");
  expect(await db.drop.count({ where: { name } })).toBe(0);

  await submit(page, "Create a drop", { ...drop, opensAt: local(1), closesAt: local(3) }, "Create drop");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Drop created");
  const created = await db.drop.findFirstOrThrow({ where: { name } });
  expect(created).toMatchObject({ packId: PACK, mode: "draw", quantity: 3, perUserCap: 1 });
  const row = page.locator(`tr[data-drop="${created.id}"]`);
  expect(await row.locator("[data-testid=status]").textContent()).toBe("upcoming");
  expect(await row.locator("[data-testid=sold]").textContent()).toBe("0 / 3");

  const title = `Collect the crest ${uid()}`;
  await submit(
    page,
    "Create a challenge",
    { title, cards: `${CARD}=2`, startsAt: local(-1), endsAt: local(48), rewardCardId: REWARD, rewardSupply: "5", rewardRep: "10" },
    "Create challenge",
  );
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Challenge created");
  const challenge = await db.challenge.findFirstOrThrow({ where: { title } });
  const listed = page.locator(`tr[data-challenge="${challenge.id}"]`);
  expect(await listed.locator("[data-testid=status]").textContent()).toBe("open");
  expect(await listed.locator("[data-testid=reward]").textContent()).toContain("5 of 5 left");
  // Each creation is audited in its own transaction (the refused one wrote nothing).
  const audited = await db.auditEntry.findMany({ where: { targetId: { in: [created.id, challenge.id] } }, orderBy: { id: "asc" } });
  expect(audited.map((a) => [a.action, a.targetId])).toEqual([
    ["drop.create", created.id],
    ["challenge.create", challenge.id],
  ]);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Drops" }).isVisible()).resolves.toBe(true);
  await context.close();
});
