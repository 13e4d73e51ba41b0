import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's deletion queue (/admin/deletions) in headless Chromium: scheduled deletions, the next the
// erasure cron may take first, with why one waits; fans get the 403 page. Rows are inserted directly.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);

async function scheduled(handle: string, minutesAhead: number, lastError: string | null) {
  const user = await db.user.create({ data: { externalId: `user_fan${uid()}`, handle, handleKey: handle.toLowerCase() } });
  const at = new Date(Date.now() + minutesAhead * 60_000);
  await db.accountDeletion.create({
    data: { userId: user.id, requestedAt: new Date(Date.now() - 86_400_000), dueAt: at, notBefore: at, lastError, attempts: lastError ? 1 : 0 },
  });
  return user.id;
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  const response = await page.goto(`${baseUrl}/admin/deletions`);
  expect(response!.status()).toBe(403);
  await context.close();
});

it("lists scheduled deletions, the next attempt first, with why one waits", async () => {
  const waiting = await scheduled(`waits${uid()}`, 5, "auction 1 has bids: the deletion waits until it settles");
  const later = await scheduled(`later${uid()}`, 60 * 24 * 6, null);
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/deletions`);
  await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Deletion queue");
  const rows = page.getByRole("table", { name: "Scheduled deletions" }).locator("tbody tr");
  const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-user")));
  expect(order.indexOf(waiting)).toBeGreaterThanOrEqual(0);
  expect(order.indexOf(waiting)).toBeLessThan(order.indexOf(later));
  expect(await page.locator(`tr[data-user="${waiting}"] [data-testid=last-error]`).textContent()).toContain("has bids");
  expect(await page.locator(`tr[data-user="${later}"] [data-testid=last-error]`).textContent()).toBe("—");
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Deletions" }).isVisible()).resolves.toBe(true);
  await context.close();
});
