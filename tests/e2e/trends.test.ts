import { randomUUID } from "node:crypto";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The staff console's trend review page in headless Chromium: pending tags with their counts, approving one (with
// the confirmation box) moves it to approved, audited; a fan gets the 403 page.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);

const signedIn = (sub: string, admin: boolean) => signedInAs(browser(), sub, admin, { width: 1280, height: 900 });

it("refuses a signed-in fan", async () => {
  const { context, page } = await signedIn(`user_fan${uid()}`, false);
  const response = await page.goto(`${baseUrl}/admin/trends`);
  expect(response!.status()).toBe(403);
  await context.close();
});

it("lists pending tags with their counts and approves one only once confirmed, audited", async () => {
  const tag = `e2etrend${uid()}`;
  const fans = await Promise.all(
    [0, 1].map((i) => db.user.create({ data: { externalId: `user_${uid()}`, handle: `tr${i}${uid()}`, handleKey: `tr${i}${uid()}` } })),
  );
  await db.tag.create({ data: { tag, name: tag } });
  for (const f of fans) {
    const p = await db.post.create({ data: { authorId: f.id, content: `#${tag}`, publishAt: new Date(Date.now() - 1000) } });
    await db.postTag.create({ data: { postId: p.id, tag, authorId: f.id, publishAt: p.publishAt } });
  }

  const staff = `user_staff${uid()}`;
  const { context, page } = await signedIn(staff, true);
  await page.goto(`${baseUrl}/admin/trends`);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Trends" }).isVisible()).resolves.toBe(true);
  const row = page.locator(`tr[data-tag="${tag}"]`);
  await expect(row.locator('[data-count="fans"]').textContent()).resolves.toBe("2");
  await expect(row.locator('[data-count="posts"]').textContent()).resolves.toBe("2");

  // Without the confirmation box the browser does not submit (required); the server refuses it too.
  const approve = row.getByRole("form", { name: `Approve #${tag}` });
  await approve.getByRole("button", { name: "Approve" }).click();
  expect((await db.tag.findUniqueOrThrow({ where: { tag } })).trendStatus).toBe("PENDING");

  await approve.getByLabel("Confirm").check();
  await approve.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/done=approved/);
  await expect(page.getByRole("status").textContent()).resolves.toContain("Tag approved");
  expect((await db.tag.findUniqueOrThrow({ where: { tag } })).trendStatus).toBe("APPROVED");
  expect(await db.auditEntry.count({ where: { targetType: "tag", targetId: tag, action: "tag.trend_review", actorId: staff } })).toBe(1);
  await expect(page.locator(`tr[data-tag="${tag}"]`).count()).resolves.toBe(0);

  await page.goto(`${baseUrl}/admin/trends?status=approved`);
  await expect(page.locator(`tr[data-tag="${tag}"]`).count()).resolves.toBe(1);
  await context.close();
});
