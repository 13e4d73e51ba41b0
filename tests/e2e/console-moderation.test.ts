import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The staff console's moderation page in headless Chromium: the queue of reported posts and comments (hide,
// restore, dismiss) and posting suspensions (suspend, lift). Posts, comments and reports are inserted directly.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;

const signedIn = (sub: string, admin: boolean) => signedInAs(browser(), sub, admin, { width: 1280, height: 900 });

async function fan(handle = `fan${uid()}`) {
  return db.user.create({ data: { externalId: `user_fan${uid()}`, handle, handleKey: handle.toLowerCase() } });
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(`user_fan${uid()}`, false);
  const response = await page.goto(`${baseUrl}/admin/moderation`);
  expect(response!.status()).toBe(403);
  expect(new URL(page.url()).pathname).toBe("/admin/forbidden");
  await context.close();
});

describe("staff console: moderation", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn(STAFF, true));
  });
  afterAll(async () => {
    await context?.close();
  });

  const statusText = () => page.getByRole("main").getByRole("status").textContent();

  it("shows a reported post with its reasons, hides it (reports resolved), restores it", async () => {
    const author = await fan();
    const [a, b] = [await fan(), await fan()];
    const content = `Buy followers now ${uid()}`;
    const post = await db.post.create({ data: { authorId: author.id, content, publishAt: new Date() } });
    await db.report.create({ data: { reporterId: a.id, postId: post.id, reason: "SPAM", note: "bot account" } });
    await db.report.create({ data: { reporterId: b.id, postId: post.id, reason: "HARASSMENT" } });

    await page.goto(`${baseUrl}/admin/moderation`);
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Moderation" }).isVisible()).resolves.toBe(true);
    // The queue is oldest first and shared with other tests: page until this post shows.
    let row = page.locator(`tr[data-target="${post.id}"]`);
    while ((await row.count()) === 0) {
      const next = page.getByRole("link", { name: "Next page" });
      expect(await next.count()).toBe(1);
      await next.click();
      await page.waitForLoadState();
      row = page.locator(`tr[data-target="${post.id}"]`);
    }
    await expect(row.getAttribute("data-kind")).resolves.toBe("post");
    await expect(row.getByTestId("content").textContent()).resolves.toBe(content);
    await expect(row.getByTestId("open-reports").textContent()).resolves.toBe("2");
    await expect(row.getByTestId("reasons").textContent()).resolves.toBe("harassment ×1, spam ×1");
    await expect(row.getByRole("listitem").allTextContents()).resolves.toEqual(["harassment", "spam: bot account"]);

    await row.getByRole("button", { name: "Hide" }).click();
    await page.waitForURL(/done=hidden/);
    await expect(statusText()).resolves.toBe(MESSAGES.hidden);
    const hidden = await db.post.findUniqueOrThrow({ where: { id: post.id } });
    expect(hidden.hiddenAt).toBeInstanceOf(Date);
    expect(hidden.hiddenBy).toBe(STAFF);
    const reports = await db.report.findMany({ where: { postId: post.id } });
    expect(reports.map((r) => [r.resolution, r.resolvedBy])).toEqual([
      ["hidden", STAFF],
      ["hidden", STAFF],
    ]);
    expect(reports.every((r) => r.resolvedAt instanceof Date)).toBe(true);
    // Out of the queue; the target panel shows it hidden with its resolved reports.
    await expect(page.locator(`tr[data-target="${post.id}"]`).count()).resolves.toBe(0);
    const panel = page.getByRole("region", { name: "Target" });
    await expect(panel.getByTestId("visibility").textContent()).resolves.toBe("Hidden");
    await expect(panel.getByTestId("report-status").allTextContents()).resolves.toEqual([
      expect.stringMatching(/^hidden \d{4}-/),
      expect.stringMatching(/^hidden /),
    ]);

    await panel.getByRole("button", { name: "Restore" }).click();
    await page.waitForURL(/done=restored/);
    await expect(statusText()).resolves.toBe(MESSAGES.restored);
    await expect(page.getByRole("region", { name: "Target" }).getByTestId("visibility").textContent()).resolves.toBe("Visible");
    expect(await db.post.findUniqueOrThrow({ where: { id: post.id } })).toMatchObject({ hiddenAt: null, hiddenBy: null });
  });

  it("dismisses a reported comment's reports, leaving the comment visible", async () => {
    const author = await fan();
    const reporter = await fan();
    const post = await db.post.create({ data: { authorId: author.id, content: `A fine post ${uid()}`, publishAt: new Date() } });
    const comment = await db.postComment.create({ data: { postId: post.id, authorId: author.id, content: `Fair criticism ${uid()}` } });
    await db.report.create({ data: { reporterId: reporter.id, commentId: comment.id, reason: "MISINFORMATION" } });

    await page.goto(`${baseUrl}/admin/moderation?comment=${comment.id}`);
    const panel = page.getByRole("region", { name: "Target" });
    await expect(panel.getByTestId("content").textContent()).resolves.toBe(comment.content);
    await expect(panel.getByTestId("report-status").allTextContents()).resolves.toEqual(["open"]);
    await panel.getByRole("button", { name: "Dismiss" }).click();
    await page.waitForURL(/done=dismissed/);
    await expect(statusText()).resolves.toBe(MESSAGES.dismissed);
    await expect(page.getByRole("region", { name: "Target" }).getByTestId("report-status").allTextContents()).resolves.toEqual([
      expect.stringMatching(/^dismissed \d{4}-/),
    ]);
    expect(await db.report.findFirstOrThrow({ where: { commentId: comment.id } })).toMatchObject({ resolution: "dismissed", resolvedBy: STAFF });
    expect((await db.postComment.findUniqueOrThrow({ where: { id: comment.id } })).hiddenAt).toBeNull();
    await expect(page.locator(`tr[data-target="${comment.id}"]`).count()).resolves.toBe(0);
  });

  it("suspends a user from posting and lifts the suspension", async () => {
    const user = await fan();
    await page.goto(`${baseUrl}/admin/moderation`);
    const form = page.getByRole("form", { name: "Suspend a user" });
    // Out-of-range hours: refused, nothing written.
    await form.getByLabel("User id").fill(user.id);
    await form.getByLabel("Hours").evaluate((el) => el.removeAttribute("max"));
    await form.getByLabel("Hours").fill("9000");
    await form.getByLabel("Reason").fill("Spam wave");
    await form.getByRole("button", { name: "Suspend" }).click();
    await page.waitForURL(/error=hours/);
    expect(await db.postingSuspension.count({ where: { userId: user.id } })).toBe(0);

    await form.getByLabel("User id").fill(user.id);
    await form.getByLabel("Hours").fill("72");
    await form.getByLabel("Reason").fill("Spam wave");
    await form.getByRole("button", { name: "Suspend" }).click();
    await page.waitForURL(/done=suspended/);
    await expect(statusText()).resolves.toBe(MESSAGES.suspended);
    const [s] = await db.postingSuspension.findMany({ where: { userId: user.id } });
    expect(s).toMatchObject({ reason: "Spam wave", staffId: STAFF, liftedAt: null });
    expect(Math.abs(s!.until.getTime() - s!.createdAt.getTime() - 72 * 3600_000)).toBeLessThan(1000);

    const row = page.locator(`tr[data-suspension="${s!.id}"]`);
    await expect(row.getByTestId("suspension-status").textContent()).resolves.toBe("Active");
    await row.getByRole("button", { name: "Lift" }).click();
    await page.waitForURL(/done=lifted/);
    await expect(statusText()).resolves.toBe(MESSAGES.lifted);
    await expect(page.locator(`tr[data-suspension="${s!.id}"]`).getByTestId("suspension-status").textContent()).resolves.toMatch(/^Lifted \d{4}-/);
    await expect(page.locator(`tr[data-suspension="${s!.id}"]`).getByRole("button", { name: "Lift" }).count()).resolves.toBe(0);
    expect((await db.postingSuspension.findUniqueOrThrow({ where: { id: s!.id } })).liftedAt).toBeInstanceOf(Date);
  });
});

const MESSAGES = {
  hidden: "Hidden: only staff can see it now, and its open reports are resolved.",
  restored: "Restored: it shows again to those who may see it.",
  dismissed: "Reports dismissed.",
  suspended: "User suspended from posting.",
  lifted: "Suspension lifted.",
};
