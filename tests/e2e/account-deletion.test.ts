import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The fans' account deletion page (/account/delete, Google Play's web link) in headless Chromium: a signed-out
// visitor is sent to sign in; a signed-in fan goes through the confirmation step, which states the date and the coins
// forfeited and needs the box ticked, schedules the deletion (the same service as POST /api/v1/me/deletion) and
// cancels it.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);

/** A fan with 12.34 coins (a wallet and the ledger row that explains it). */
async function fanWithCoins() {
  const sub = `user_fan${uid()}`;
  const user = await db.user.create({ data: { externalId: sub } });
  await db.wallet.create({ data: { userId: user.id, currency: "COIN", balance: 1_234n } });
  await db.walletTransaction.create({
    data: { userId: user.id, currency: "COIN", amount: 1_234n, balanceAfter: 1_234n, reason: "adjustment", referenceType: "staff", referenceId: "e2e" },
  });
  return { sub, id: user.id };
}

it("sends a signed-out visitor to sign in, and back here afterwards", async () => {
  const res = await fetch(`${baseUrl}/account/delete`, { redirect: "manual" });
  expect([303, 307]).toContain(res.status);
  const location = new URL(res.headers.get("location")!);
  expect(location.origin + location.pathname).toBe("https://accounts.example.com/sign-in");
  expect(new URL(location.searchParams.get("redirect_url")!).pathname).toBe("/account/delete");
});

it("a fan schedules the deletion through the confirmation step (date and forfeited coins stated), then cancels it", async () => {
  const fan = await fanWithCoins();
  const { context, page } = await signedIn(browser(), fan.sub);
  await page.goto(`${baseUrl}/account/delete`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Delete your account");
  expect(await db.accountDeletion.count({ where: { userId: fan.id } })).toBe(0);

  await page.getByRole("link", { name: "Continue" }).click();
  await page.waitForURL(/step=confirm/);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Confirm the deletion of your account");
  const due = new Date(Date.now() + 7 * 86_400_000).toLocaleString("en-GB", { dateStyle: "long", timeZone: "UTC" });
  expect(await page.getByTestId("scheduled-for").textContent()).toContain(due);
  expect(await page.getByTestId("forfeit").textContent()).toContain("12.34 coins will be forfeited");

  // Without the box ticked nothing is scheduled.
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(/error=unconfirmed/);
  expect(await page.locator("main [role=alert]").textContent()).toContain("Tick the box");
  expect(await db.accountDeletion.count({ where: { userId: fan.id } })).toBe(0);

  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL(/done=scheduled/);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your account is scheduled for deletion");
  const row = await db.accountDeletion.findUniqueOrThrow({ where: { userId: fan.id } });
  expect(row.state).toBe("scheduled");
  expect(await page.getByTestId("scheduled-for").textContent()).toContain(row.dueAt.toLocaleString("en-GB", { dateStyle: "long", timeZone: "UTC" }));
  expect(await page.getByTestId("forfeit").textContent()).toContain("12.34 coins");

  await page.getByRole("button", { name: "Cancel the deletion" }).click();
  await page.waitForURL(/done=cancelled/);
  expect(await page.locator("main [role=status]").textContent()).toContain("cancelled");
  expect(await db.accountDeletion.count({ where: { userId: fan.id } })).toBe(0);
  await context.close();
});
