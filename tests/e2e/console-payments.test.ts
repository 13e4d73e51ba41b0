import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's payments page (/admin/payments) in headless Chromium: bundles created and changed through its
// form (a store product id taken by another bundle refused), purchases filtered by state, and frozen wallets. The
// browser tests' database is not seeded: purchases and debts are inserted directly.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/payments`))!.status()).toBe(403);
  await context.close();
});

it("creates and changes a bundle, refuses a taken store id, and lists purchases by state and frozen wallets", async () => {
  const id = `b_${uid()}`;
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/payments`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Payments");

  const save = async (values: Record<string, string>, active = true) => {
    await page.goto(`${baseUrl}/admin/payments`);
    const form = page.getByRole("form", { name: "Save a bundle" });
    for (const [name, value] of Object.entries(values)) await form.locator(`[name=${name}]`).fill(value);
    if (!active) await form.locator("[name=active]").uncheck();
    await Promise.all([page.waitForURL(/\/admin\/payments\?/), form.getByRole("button", { name: "Save bundle" }).click()]);
  };
  await save({ id, name: "Test bundle", coins: "75000", prices: "USD=799, eur=749", appStoreProductId: `com.example.${id}`, sortOrder: "9" });
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Bundle saved.");
  const row = page.locator(`tr[data-product="${id}"]`);
  await expect(row.textContent()).resolves.toContain("eur=749, usd=799");
  expect(await row.locator("[data-testid=active]").textContent()).toBe("yes");
  const stored = await db.coinProduct.findUniqueOrThrow({ where: { id } });
  expect({ coins: Number(stored.coins), prices: stored.prices, appStore: stored.appStoreProductId, active: stored.active }).toEqual({
    coins: 75_000,
    prices: { usd: 799, eur: 749 },
    appStore: `com.example.${id}`,
    active: true,
  });

  // Off sale; then another bundle may not take its App Store id; a bad price list is refused.
  await save({ id, name: "Test bundle", coins: "75000", prices: "usd=799", appStoreProductId: `com.example.${id}`, sortOrder: "9" }, false);
  expect(await row.locator("[data-testid=active]").textContent()).toBe("no");
  await save({ id: `${id}_2`, name: "Copy", coins: "1", prices: "usd=1", appStoreProductId: `com.example.${id}`, sortOrder: "0" });
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Another bundle already has that");
  await save({ id: `${id}_3`, name: "Bad", coins: "1", prices: "dollars", sortOrder: "0" });
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("Prices are currency=amount pairs");
  expect(await db.coinProduct.count({ where: { id: { in: [`${id}_2`, `${id}_3`] } } })).toBe(0);

  // A refunded purchase and its frozen wallet.
  const user = await db.user.create({ data: { externalId: `user_fan${uid()}`, handle: `payer${uid()}`, handleKey: `payer${uid()}` } });
  const purchase = await db.coinPurchase.create({
    data: {
      userId: user.id,
      productId: id,
      provider: "stripe",
      providerTxnId: `pi_${uid()}`,
      coins: 75_000,
      amount: 799,
      currency: "usd",
      state: "refunded",
      refundedAmount: 799,
      clawedCoins: 75_000,
      creditedAt: new Date(),
    },
  });
  // Its books as the claw-back leaves them (other console pages check the economy invariant over every wallet): the
  // 75,000 coins credited, 25,000 spent on a pack, the remaining 50,000 taken back and 25,000 owed.
  await db.wallet.create({ data: { userId: user.id, currency: "COIN", balance: 0, debt: 25_000 } });
  const books: [number, number, "topup" | "purchase" | "clawback"][] = [
    [75_000, 75_000, "topup"],
    [-25_000, 50_000, "purchase"],
    [-50_000, 0, "clawback"],
  ];
  for (const [amount, balanceAfter, reason] of books) {
    await db.walletTransaction.create({
      data: {
        userId: user.id,
        currency: "COIN",
        amount,
        balanceAfter,
        reason,
        referenceType: reason === "purchase" ? "pack_purchase" : "coin_purchase",
        referenceId: purchase.id,
      },
    });
  }
  await page.goto(`${baseUrl}/admin/payments?state=refunded`);
  const bought = page.locator(`tr[data-purchase="${purchase.id}"]`);
  await expect(bought.textContent()).resolves.toContain("$7.99");
  expect(await page.locator("tr[data-purchase]").evaluateAll((trs) => trs.every((tr) => tr.getAttribute("data-state") === "refunded"))).toBe(true);
  await page.goto(`${baseUrl}/admin/payments?state=credited`);
  expect(await bought.count()).toBe(0);
  expect(await page.locator(`tr[data-user="${user.id}"] [data-testid=debt]`).textContent()).toBe("250.00");
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Payments" }).isVisible()).resolves.toBe(true);

  // The latest reconciliation run and its differences (recorded by the cron; inserted here).
  const txn = `pi_${uid()}`;
  await db.paymentReconciliation.create({
    data: {
      provider: "stripe",
      windowFrom: new Date(Date.now() - 3 * 86_400_000),
      startedAt: new Date(Date.now() + 60_000),
      checked: 7,
      status: "differences",
      discrepancies: { create: [{ kind: "not_credited", providerTxnId: txn, details: { stripeAmount: 499 } }] },
    },
  });
  await page.goto(`${baseUrl}/admin/payments`);
  const run = page.locator('[data-reconciliation="stripe"]');
  expect(await run.getAttribute("data-status")).toBe("differences");
  await expect(run.textContent()).resolves.toContain("1 difference(s)");
  expect(await page.locator(`tr[data-txn="${txn}"]`).getAttribute("data-kind")).toBe("not_credited");
  await context.close();
});
