import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buyListing, createListing } from "../../lib/features/marketplace/service";
import { adjust } from "../../lib/core/wallets/service";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The staff console's economy page in headless Chromium: the ledger invariant, wallet adjustments (a debit past the
// balance refused), the packs with their odds, and marketplace oversight (cancel a listing, refund a sale). The
// sellers, buyers and their items are arranged through the same services the API uses.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;
const CARD = `cc_e2e_${uid()}`;
const PACK = `pk_e2e_${uid()}`;
let serial = 0;

beforeAll(async () => {
  // The browser tests' database is not seeded: a team, its card and a pack of their own.
  const team = await db.team.create({ data: { id: `tm_e2e_${uid()}`, slug: `e2e-${uid()}`, name: "Console Testers" } });
  await db.collectibleCard.create({ data: { id: CARD, kind: "team", teamId: team.id, name: `Console card ${uid()}`, rarity: "rare", editionSize: 1_000 } });
  await db.pack.create({ data: { id: PACK, slug: PACK, name: "Console pack", price: 25_000, itemsPerPack: 4, stock: 10 } });
  await db.packOddsTable.create({
    data: {
      packId: PACK,
      version: 1,
      weights: { common: 0, rare: 10_000, epic: 0, legendary: 0 },
      pool: { common: [], rare: [CARD], epic: [], legendary: [] },
    },
  });
});

const signedIn = (sub: string, admin: boolean) => signedInAs(browser(), sub, admin, { width: 1280, height: 900 });
const fan = () => db.user.create({ data: { externalId: `user_fan${uid()}` } });
const balance = async (userId: string) => Number((await db.wallet.findUnique({ where: { userId_currency: { userId, currency: "COIN" } } }))?.balance ?? 0);
async function item(ownerId: string) {
  serial++;
  return (await db.collectible.create({ data: { cardId: CARD, serial, ownerId } })).id;
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(`user_fan${uid()}`, false);
  const response = await page.goto(`${baseUrl}/admin/economy`);
  expect(response!.status()).toBe(403);
  await context.close();
});

describe("staff console: economy", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn(STAFF, true));
  });
  afterAll(async () => {
    await context?.close();
  });

  const status = () => page.getByRole("main").getByRole("status").textContent();
  const alert = () => page.getByRole("main").getByRole("alert").textContent();

  it("credits and debits a wallet with a reason, refuses a debit past the balance, and shows the invariant OK", async () => {
    const user = await fan();
    await page.goto(`${baseUrl}/admin/economy`);
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Economy" }).isVisible()).resolves.toBe(true);
    const adjustWith = async (amount: string, note: string) => {
      const form = page.getByRole("region", { name: "Adjust a wallet" }).locator("form").first();
      await form.getByLabel("User id").fill(user.id);
      await form.getByLabel("Amount (coins, negative to debit)").fill(amount);
      await form.getByLabel("Reason").fill(note);
      await form.getByRole("button", { name: "Adjust" }).click();
      await page.waitForLoadState();
    };

    await adjustWith("12.50", "goodwill");
    await page.waitForURL(/done=adjusted/);
    await expect(status()).resolves.toBe("Wallet adjusted.");
    await expect(page.getByTestId("balance").textContent()).resolves.toContain("12.50");
    expect(await balance(user.id)).toBe(1_250);

    await adjustWith("-20.00", "too much");
    await page.waitForURL(/error=INSUFFICIENT_FUNDS/);
    await expect(alert()).resolves.toBe("The balance does not cover that debit. Nothing changed.");
    expect(await balance(user.id)).toBe(1_250);

    await adjustWith("-2.5", "correction");
    await page.waitForURL(/done=adjusted/);
    expect(await balance(user.id)).toBe(1_000);
    await expect(page.getByRole("table", { name: "Ledger" }).getByTestId("amount").allTextContents()).resolves.toEqual(["-2.50", "12.50"]);

    await adjustWith("1.005", "bad");
    await page.waitForURL(/error=amount/);
    expect(await balance(user.id)).toBe(1_000);

    expect(await page.getByTestId("invariant").getAttribute("data-ok"), (await page.locator("section[aria-labelledby=invariant]").textContent()) ?? "").toBe(
      "true",
    );
    const pack = await page.locator(`tr[data-pack="${PACK}"]`).textContent();
    expect(pack).toContain("250.00");
    expect(pack).toContain("10 of 10 left");
    expect(pack).toContain("rare 100% (1 cards)");
    await expect(page.locator('tr[data-rarity="rare"]').textContent()).resolves.toMatch(/rare\d+/);

    // Stock: set it, and refuse going below what was sold.
    await page.getByLabel("Stock of Console pack").fill("25");
    await page.locator(`tr[data-pack="${PACK}"]`).getByRole("button", { name: "Set" }).click();
    await page.waitForURL(/done=stock/);
    expect((await db.pack.findUniqueOrThrow({ where: { id: PACK } })).stock).toBe(25);
    await db.pack.update({ where: { id: PACK }, data: { soldCount: 5 } });
    await page.getByLabel("Stock of Console pack").fill("4");
    await page.locator(`tr[data-pack="${PACK}"]`).getByRole("button", { name: "Set" }).click();
    await page.waitForURL(/error=STOCK_BELOW_SOLD/);
    await expect(alert()).resolves.toBe("Stock cannot be set below the packs already sold. Nothing changed.");
    expect((await db.pack.findUniqueOrThrow({ where: { id: PACK } })).stock).toBe(25);
  });

  it("cancels an active listing and refunds a sale", async () => {
    const seller = await fan();
    const buyer = await fan();
    await adjust(db, { userId: buyer.id, currency: "COIN", amount: 3_000, note: "e2e funds" }, { id: STAFF, role: "admin" });
    const toCancel = (await createListing(db, seller.id, { kind: "fixed", collectibleId: await item(seller.id), price: 900 })).listing;
    const toSell = (await createListing(db, seller.id, { kind: "fixed", collectibleId: await item(seller.id), price: 2_000 })).listing;
    await buyListing(db, buyer.id, toSell.id, { key: randomUUID(), scope: "POST /api/v1/marketplace/listings/{listingId}/buy" });

    await page.goto(`${baseUrl}/admin/economy`);
    await page
      .locator(`table[aria-label="Active listings"] tr[data-listing="${toCancel.id}"]`)
      .getByRole("button", { name: /^Cancel / })
      .click();
    await page.waitForURL(/done=cancelled/);
    expect((await db.listing.findUniqueOrThrow({ where: { id: toCancel.id } })).status).toBe("cancelled");

    await page
      .locator(`table[aria-label="Recent sales"] tr[data-listing="${toSell.id}"]`)
      .getByRole("button", { name: /^Refund / })
      .click();
    await page.waitForURL(/done=refunded/);
    await expect(status()).resolves.toContain("Sale refunded");
    expect(await balance(buyer.id)).toBe(3_000);
    expect(await balance(seller.id)).toBe(0);
    expect((await db.collectible.findUniqueOrThrow({ where: { id: toSell.collectible.id } })).ownerId).toBe(seller.id);
    await expect(page.locator(`table[aria-label="Recent sales"] tr[data-listing="${toSell.id}"]`).textContent()).resolves.toContain("Refunded");
    expect(await page.getByTestId("invariant").getAttribute("data-ok"), (await page.locator("section[aria-labelledby=invariant]").textContent()) ?? "").toBe(
      "true",
    );
  });
});
