import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The console's reports, sanctions and appeals page in headless Chromium: impose and lift a sanction, grant and
// deny appeals (a grant restores the posts the action hid), resolve reports of users, review a team staff hide.
// Users, actions, appeals and reports are inserted directly.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;
const PAGE = `${baseUrl}/admin/moderation/accounts`;

async function fan() {
  const handle = `fan${uid()}`;
  return db.user.create({ data: { externalId: `user_fan${uid()}`, handle, handleKey: handle.toLowerCase() } });
}

/** A trading restriction with a hidden post, as imposeSanction writes it (action, hidden post, user column). */
async function restrictedWithHiddenPost(userId: string) {
  const actionId = randomUUID();
  const endsAt = new Date(Date.now() + 24 * 3_600_000);
  await db.moderationAction.create({
    data: {
      id: actionId,
      userId,
      kind: "TRADING_RESTRICTION",
      reason: "Scam listings",
      staffId: "user_other_staff",
      endsAt,
      reviewedAt: new Date(),
      reviewedBy: "user_other_staff",
    },
  });
  const post = await db.post.create({
    data: { authorId: userId, content: `hidden ${uid()}`, publishAt: new Date(), hiddenAt: new Date(), hiddenBy: "user_other_staff", hiddenActionId: actionId },
  });
  await db.user.update({ where: { id: userId }, data: { tradingRestrictedUntil: endsAt } });
  return { actionId, postId: post.id };
}

describe("staff console: reports, sanctions and appeals", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedInAs(browser(), STAFF, true, { width: 1400, height: 900 }));
  });
  afterAll(async () => {
    await context?.close();
  });

  const statusText = () => page.getByRole("main").getByRole("status").textContent();

  it("imposes a trading restriction and lifts it", async () => {
    const user = await fan();
    await page.goto(PAGE);
    const form = page.getByRole("form", { name: "Impose a sanction" });
    await form.getByLabel("User id").fill(user.id);
    await form.getByLabel("Sanction").selectOption("trading");
    await form.getByLabel("Hours").fill("48");
    await form.getByLabel("Reason").fill("Chargebacks");
    await form.getByRole("button", { name: "Impose" }).click();
    await page.waitForURL(/done=imposed/);
    await expect(statusText()).resolves.toBe("Sanction imposed.");
    const [action] = await db.moderationAction.findMany({ where: { userId: user.id } });
    expect(action).toMatchObject({ kind: "TRADING_RESTRICTION", reason: "Chargebacks", staffId: STAFF, liftedAt: null });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toEqual(action!.endsAt);

    const row = page.locator(`tr[data-action="${action!.id}"]`);
    await expect(row.getByTestId("action-status").textContent()).resolves.toBe("Active");
    await row.getByRole("button", { name: "Lift" }).click();
    await page.waitForURL(/done=lifted/);
    await expect(statusText()).resolves.toBe("Action lifted: what it restricted or hid is restored.");
    await expect(page.locator(`tr[data-action="${action!.id}"]`).getByTestId("action-status").textContent()).resolves.toMatch(/^Lifted \d{4}-/);
    expect(await db.moderationAction.findUniqueOrThrow({ where: { id: action!.id } })).toMatchObject({ liftedBy: STAFF });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toBeNull();
  });

  it("grants an appeal (the hidden post comes back, the restriction lifted) and denies another", async () => {
    const user = await fan();
    const { actionId, postId } = await restrictedWithHiddenPost(user.id);
    const text = `I did nothing wrong ${uid()}`;
    const granted = await db.moderationAppeal.create({ data: { actionId, userId: user.id, text } });
    const other = await restrictedWithHiddenPost((await fan()).id);
    const denied = await db.moderationAppeal.create({
      data: { actionId: other.actionId, userId: (await db.moderationAction.findUniqueOrThrow({ where: { id: other.actionId } })).userId, text: "Please" },
    });

    await page.goto(PAGE);
    const row = page.locator(`tr[data-appeal="${granted.id}"]`);
    await expect(row.getByTestId("appeal-text").textContent()).resolves.toBe(text);
    await row.getByRole("button", { name: "Grant" }).click();
    await page.waitForURL(/done=granted/);
    await expect(statusText()).resolves.toBe("Appeal granted: the action is lifted and what it hid is restored.");
    expect(await db.moderationAppeal.findUniqueOrThrow({ where: { id: granted.id } })).toMatchObject({ status: "GRANTED", decidedBy: STAFF });
    expect((await db.post.findUniqueOrThrow({ where: { id: postId } })).hiddenAt).toBeNull();
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toBeNull();
    await expect(page.locator(`tr[data-appeal="${granted.id}"]`).count()).resolves.toBe(0);

    await page.locator(`tr[data-appeal="${denied.id}"]`).getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(/done=denied/);
    expect(await db.moderationAppeal.findUniqueOrThrow({ where: { id: denied.id } })).toMatchObject({ status: "DENIED", decidedBy: STAFF });
    expect((await db.post.findUniqueOrThrow({ where: { id: other.postId } })).hiddenAt).toBeInstanceOf(Date);
  });

  it("dismisses the open reports of a user", async () => {
    const target = await fan();
    const reporter = await fan();
    const report = await db.report.create({ data: { reporterId: reporter.id, targetUserId: target.id, reason: "HARASSMENT", note: `note ${uid()}` } });
    await page.goto(PAGE);
    let row = page.locator(`tr[data-report="${report.id}"]`);
    while ((await row.count()) === 0) {
      await page.getByRole("link", { name: "More reports" }).click();
      await page.waitForLoadState();
      row = page.locator(`tr[data-report="${report.id}"]`);
    }
    await row.getByRole("button", { name: "Dismiss" }).click();
    await page.waitForURL(/done=dismissed/);
    await expect(statusText()).resolves.toBe("Reports dismissed.");
    expect(await db.report.findUniqueOrThrow({ where: { id: report.id } })).toMatchObject({ resolution: "dismissed", resolvedBy: STAFF, isOpen: null });
  });

  it("reverts a team staff hide: the comment comes back", async () => {
    const author = await fan();
    const post = await db.post.create({ data: { authorId: (await fan()).id, content: "Thread", publishAt: new Date(), commentCount: 0 } });
    const actionId = randomUUID();
    await db.moderationAction.create({
      data: { id: actionId, userId: author.id, kind: "CONTENT_HIDDEN", reason: "Abusive", staffId: "user_team_staff", teamId: "tm_x" },
    });
    const comment = await db.postComment.create({
      data: { postId: post.id, authorId: author.id, content: "hmm", hiddenAt: new Date(), hiddenBy: "user_team_staff", hiddenActionId: actionId },
    });
    await page.goto(PAGE);
    let row = page.locator(`tr[data-review="${actionId}"]`);
    while ((await row.count()) === 0) {
      await page.getByRole("link", { name: "More to review" }).click();
      await page.waitForLoadState();
      row = page.locator(`tr[data-review="${actionId}"]`);
    }
    await row.getByRole("button", { name: "Revert" }).click();
    await page.waitForURL(/done=reverted/);
    expect((await db.postComment.findUniqueOrThrow({ where: { id: comment.id } })).hiddenAt).toBeNull();
    expect((await db.post.findUniqueOrThrow({ where: { id: post.id } })).commentCount).toBe(1);
    expect(await db.moderationAction.findUniqueOrThrow({ where: { id: actionId } })).toMatchObject({ reviewedBy: STAFF, liftedBy: STAFF });
  });
});
