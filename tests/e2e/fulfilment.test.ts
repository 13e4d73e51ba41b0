import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { award } from "../../lib/core/rep/grants";
import { browserSuite, signedIn } from "./harness";

// The staff console's fulfilment page (/admin/fulfilment) in headless Chromium: a fan redeems a physical reward
// through the API, staff mark it shipped with a tracking code (Confirm required, audited), and the fan's
// GET /api/rewards/claims/{id} shows it.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);

async function call(sub: string, method: string, path: string, json?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${signSessionToken(inject("privateKey"), sub)}`, ...(json ? { "content-type": "application/json" } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/fulfilment`))!.status()).toBe(403);
  await context.close();
});

it("staff mark a physical claim shipped with tracking; the fan sees it", async () => {
  const fan = `user_fan${uid()}`;
  expect((await call(fan, "GET", "/api/rewards")).status).toBe(200);
  const userId = (await db.user.findUniqueOrThrow({ where: { externalId: fan } })).id;
  await db.$transaction((tx) => award(tx, userId, { earnKind: "test_grant", amount: 200, source: "club", reason: "Test grant", grantKey: `test:${uid()}` }));
  const rewardId = `rw_e2e_${uid()}`;
  await db.reward.create({
    data: { id: rewardId, slug: rewardId.replace(/_/g, "-"), title: `Scarf ${rewardId}`, costRep: 100, stock: 3, fulfilment: "physical" },
  });
  const address = { name: "Ada Fan", line1: "1 Harbour Road", city: "Leeds", postalCode: "LS1 4AB", country: "GB" };
  expect((await call(fan, "PUT", "/api/v1/me/shipping-address", address)).status).toBe(200);
  const redeemed = await call(fan, "POST", "/api/rewards/redeem", { rewardId, idempotencyKey: `k-${uid()}` });
  expect(redeemed.status).toBe(200);
  const claimId = redeemed.body.data.claim.id as string;

  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/fulfilment`);
  const row = page.locator(`tr[data-claim="${claimId}"]`);
  expect(await row.getAttribute("data-status")).toBe("pending");
  expect(await row.getByTestId("address").textContent()).toContain("1 Harbour Road");

  // Without Confirm the browser does not send the form; with it, the claim moves.
  const form = page.getByRole("form", { name: `Mark ${claimId} shipped` });
  await form.getByLabel("Tracking code").fill("TRK-E2E-1");
  await form.locator("[name=confirm]").check();
  await Promise.all([page.waitForURL(/\/admin\/fulfilment\?/), form.getByRole("button", { name: "Mark shipped" }).click()]);
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Claim marked shipped");

  const mine = await call(fan, "GET", `/api/rewards/claims/${claimId}`);
  expect(mine.status).toBe(200);
  expect(mine.body.data.fulfilment).toMatchObject({ status: "shipped", trackingCode: "TRK-E2E-1" });
  expect(await db.auditEntry.count({ where: { targetId: claimId, action: "reward_claim.shipped" } })).toBe(1);
  await context.close();
});
