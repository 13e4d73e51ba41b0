import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The staff console's push outbox page in headless Chromium: counts per state, the latest rows (all, or one state),
// and the development stand-in's deliveries.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);

const signedIn = (sub: string, admin: boolean) => signedInAs(browser(), sub, admin, { width: 1280, height: 900 });

it("refuses a signed-in fan", async () => {
  const { context, page } = await signedIn(`user_fan${uid()}`, false);
  const response = await page.goto(`${baseUrl}/admin/push`);
  expect(response!.status()).toBe(403);
  await context.close();
});

it("shows the outbox's counts, its latest rows and one state's, and the stand-in's deliveries", async () => {
  const handle = `pushfan${uid()}`;
  const user = await db.user.create({ data: { externalId: `user_${uid()}`, handle, handleKey: handle } });
  const rows = [
    { status: "sent", sentAt: new Date() },
    { status: "dropped", dropReason: "blocked" },
    { status: "pending", nextAttemptAt: new Date(Date.now() + 3_600_000) },
  ];
  const causes: string[] = [];
  for (const r of rows) {
    const causeKey = `e2e:${uid()}`;
    causes.push(causeKey);
    const n = await db.notification.create({ data: { id: uuidv7(), userId: user.id, type: "MILESTONE", causeKey, payload: { title: "t", body: "b" } } });
    await db.pushOutbox.create({ data: { id: uuidv7(), userId: user.id, notificationId: n.id, causeKey, type: "MILESTONE", ...r } });
  }
  const sentRow = await db.pushOutbox.findFirstOrThrow({ where: { causeKey: causes[0] } });
  const title = `Stand-in ${uid()}`;
  await db.pushDelivery.create({
    data: { id: uuidv7(), outboxId: sentRow.id, deviceId: randomUUID(), provider: "standin", outcome: "ok", detail: "for expo", title, body: "hello" },
  });

  const { context, page } = await signedIn(`user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/push`);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Push" }).isVisible()).resolves.toBe(true);
  for (const s of ["sent", "dropped", "pending"]) {
    expect(Number(await page.getByTestId(`push-count-${s}`).textContent())).toBeGreaterThanOrEqual(1);
  }
  const table = page.getByTestId("push-outbox");
  for (const cause of causes) await expect(table.getByText(cause).isVisible()).resolves.toBe(true);
  await expect(table.locator("tr", { hasText: causes[1]! }).getByText("blocked").isVisible()).resolves.toBe(true);
  await expect(page.getByTestId("push-standin").getByText(title).isVisible()).resolves.toBe(true);

  // One state: only its rows.
  await page.getByTestId("push-count-dropped").getByRole("link").click();
  await page.waitForURL(/status=dropped/);
  const statuses = await page
    .getByTestId("push-outbox")
    .locator("tr[data-status]")
    .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-status")));
  expect(statuses.length).toBeGreaterThan(0);
  expect(new Set(statuses)).toEqual(new Set(["dropped"]));
  await expect(page.getByTestId("push-outbox").getByText(causes[1]!).isVisible()).resolves.toBe(true);
  await context.close();
});
