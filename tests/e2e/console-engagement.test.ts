import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { award, debit } from "../../lib/core/rep/grants";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The staff console's engagement pages in headless Chromium: quests and their question bank, rewards and stock, a
// user's Rep ledger and reversals.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;

const signedIn = (sub: string, admin: boolean) => signedInAs(browser(), sub, admin, { width: 1280, height: 900 });

it("refuses a signed-in fan on every engagement page", async () => {
  const { context, page } = await signedIn(`user_fan${uid()}`, false);
  for (const path of ["/admin/quests", "/admin/quests/q_anything", "/admin/rewards", `/admin/users/ledger?user=${randomUUID()}`]) {
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response!.status()).toBe(403);
    expect(new URL(page.url()).pathname).toBe("/admin/forbidden");
  }
  await context.close();
});

describe("staff console: engagement", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn(STAFF, true));
  });
  afterAll(async () => {
    await context?.close();
  });

  // (Next's route announcer is an alert too: read the page's own notices.)
  const errorText = (p: Page = page) => p.getByRole("main").getByRole("alert").textContent();
  const statusText = () => page.getByRole("main").getByRole("status").textContent();

  it("creates a quiz quest, schedules it, refuses a backwards window, and retires it without deleting it", async () => {
    const slug = `e2e-quiz-${uid()}`;
    await page.goto(`${baseUrl}/admin/quests`);
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Quests" }).isVisible()).resolves.toBe(true);

    // A window that ends before it starts: refused, nothing created.
    const form = page.getByRole("form", { name: "Create a quest" });
    await form.getByLabel("Title").fill("Bad window quiz");
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Available from (UTC)").fill("2026-12-10T10:00");
    await form.getByLabel("Available until (UTC)").fill("2026-12-01T10:00");
    await form.getByRole("button", { name: "Create quest" }).click();
    await page.waitForURL(/\/admin\/quests\?error=window$/);
    await expect(errorText()).resolves.toBe("The window must end after it starts. Nothing was created.");
    expect(await db.quest.count({ where: { slug } })).toBe(0);

    await form.getByLabel("Title").fill("Hawks trivia");
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Kind").selectOption("quiz");
    await form.getByLabel("Cadence").selectOption("daily");
    await form.getByLabel("Rep reward").fill("30");
    await form.getByLabel("Rep type").selectOption("club");
    await form.getByLabel("Questions per quiz").fill("3");
    await form.getByLabel("Available from (UTC)").fill("2026-12-01T10:00");
    await form.getByLabel("Available until (UTC)").fill("");
    await form.getByRole("button", { name: "Create quest" }).click();
    const id = `q_${slug.replace(/-/g, "_")}`;
    await page.waitForURL(`${baseUrl}/admin/quests/${id}?done=created`);
    await expect(statusText()).resolves.toBe("Quest created.");
    await expect(page.getByTestId("quest-window").textContent()).resolves.toBe("2026-12-01 10:00:00 UTC → open-ended");
    expect(await db.quest.findUniqueOrThrow({ where: { id } })).toMatchObject({
      slug,
      title: "Hawks trivia",
      kind: "quiz",
      scope: "global",
      cadence: "daily",
      isDaily: true,
      repReward: 30n,
      repSource: "club",
      quizLength: 3,
      active: true,
      retiredAt: null,
      availableFrom: new Date("2026-12-01T10:00:00Z"),
      availableUntil: null,
    });

    // The same slug again is refused.
    await page.goto(`${baseUrl}/admin/quests`);
    await form.getByLabel("Title").fill("Duplicate");
    await form.getByLabel("Slug").fill(slug);
    await form.getByRole("button", { name: "Create quest" }).click();
    await page.waitForURL(/\/admin\/quests\?error=slug$/);
    expect(await db.quest.count({ where: { slug } })).toBe(1);

    // Schedule: a closing time.
    await page.goto(`${baseUrl}/admin/quests/${id}`);
    await page.getByLabel("Available until (UTC)").fill("2026-12-31T23:00");
    await page.getByRole("button", { name: "Save window" }).click();
    await page.waitForURL(/done=scheduled/);
    await expect(page.getByTestId("quest-window").textContent()).resolves.toBe("2026-12-01 10:00:00 UTC → 2026-12-31 23:00:00 UTC");
    expect((await db.quest.findUniqueOrThrow({ where: { id } })).availableUntil).toEqual(new Date("2026-12-31T23:00:00Z"));

    // Listed with its kind, scope, cadence and status.
    await page.goto(`${baseUrl}/admin/quests`);
    const row = page.locator(`tr[data-quest="${slug}"]`);
    await expect(row.textContent()).resolves.toMatch(/quiz \(0 active questions\).*global.*daily.*30 club/);
    await expect(row.getByTestId("quest-status").textContent()).resolves.toBe("Active");

    await row.getByRole("link", { name: "Hawks trivia" }).click();
    await page.waitForURL(`${baseUrl}/admin/quests/${id}`);
    await page.getByRole("button", { name: "Retire quest" }).click();
    await page.waitForURL(/done=retired/);
    await expect(page.getByTestId("quest-status").textContent()).resolves.toMatch(/^Retired \d{4}-/);
    await expect(page.getByRole("button", { name: "Retire quest" }).count()).resolves.toBe(0);
    const retired = await db.quest.findUniqueOrThrow({ where: { id } });
    expect(retired.active).toBe(false);
    expect(retired.retiredAt).toBeInstanceOf(Date);
    await page.goto(`${baseUrl}/admin/quests`);
    await expect(page.locator(`tr[data-quest="${slug}"]`).getByTestId("quest-status").textContent()).resolves.toMatch(/^Retired/);
  });

  it("adds a quiz question and shows its answer; an answer outside the choices is refused; deactivates it", async () => {
    const id = `q_e2e_bank_${uid()}`;
    await db.quest.create({ data: { id, slug: id.replace(/_/g, "-"), title: "Bank quiz", kind: "quiz", cadence: "daily", isDaily: true, quizLength: 3 } });
    await page.goto(`${baseUrl}/admin/quests/${id}`);
    const form = page.getByRole("form", { name: "Add a question" });
    await form.getByLabel("Question").fill("Who won the 2025 final?");
    await form.getByLabel("Choice 1", { exact: true }).fill("Hawks");
    await form.getByLabel("Choice 2", { exact: true }).fill("Gulls");
    await form.getByLabel("Choice 3 (optional)").fill("Terns");
    await form.getByLabel("Answer").selectOption("4");
    await form.getByRole("button", { name: "Add question" }).click();
    await page.waitForURL(/error=answer/);
    await expect(errorText()).resolves.toBe("The answer must be one of the choices filled in. Nothing changed.");
    expect(await db.quizQuestion.count({ where: { questId: id } })).toBe(0);

    await form.getByLabel("Question").fill("Who won the 2025 final?");
    await form.getByLabel("Choice 1", { exact: true }).fill("Hawks");
    await form.getByLabel("Choice 2", { exact: true }).fill("Gulls");
    await form.getByLabel("Choice 3 (optional)").fill("Terns");
    await form.getByLabel("Answer").selectOption("1");
    await form.getByRole("button", { name: "Add question" }).click();
    await page.waitForURL(/done=question/);
    const [question] = await db.quizQuestion.findMany({ where: { questId: id } });
    expect(question).toMatchObject({ prompt: "Who won the 2025 final?", choices: ["Hawks", "Gulls", "Terns"], answerIndex: 1, active: true });
    const row = page.locator(`tr[data-question="${question!.id}"]`);
    await expect(row.getByTestId("answer").textContent()).resolves.toBe("2. Gulls");
    await expect(row.getByRole("listitem").allTextContents()).resolves.toEqual(["Hawks", "Gulls", "Terns"]);

    await row.getByRole("button", { name: /Deactivate question/ }).click();
    await page.waitForURL(/done=deactivated/);
    await expect(page.locator(`tr[data-question="${question!.id}"]`).getByTestId("question-status").textContent()).resolves.toBe("Inactive");
    expect((await db.quizQuestion.findUniqueOrThrow({ where: { id: question!.id } })).active).toBe(false);
  });

  it("creates a reward, adjusts its stock (never below 0) and deactivates it", async () => {
    const slug = `e2e-scarf-${uid()}`;
    const id = `rw_${slug.replace(/-/g, "_")}`;
    await page.goto(`${baseUrl}/admin/rewards`);
    const form = page.getByRole("form", { name: "Create a reward" });
    // A milestone reward with a cost is refused.
    await form.getByLabel("Title").fill("Bad milestone");
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Kind").selectOption("milestone");
    await form.getByLabel("Cost (Rep)").fill("10");
    await form.locator('select[name="milestone"]').selectOption("rep_earned");
    await form.getByLabel("Milestone target").fill("100");
    await form.getByRole("button", { name: "Create reward" }).click();
    await page.waitForURL(/error=milestone_cost/);
    await expect(errorText()).resolves.toBe("Milestone rewards are claimed free: their cost must be 0. Nothing changed.");
    expect(await db.reward.count({ where: { slug } })).toBe(0);

    await form.getByLabel("Title").fill("Team scarf");
    await form.getByLabel("Slug").fill(slug);
    await form.getByLabel("Cost (Rep)").fill("250");
    await form.getByLabel("Stock (empty: unlimited)").fill("3");
    await form.getByLabel("Per-user limit").fill("1");
    await form.getByRole("button", { name: "Create reward" }).click();
    await page.waitForURL(/done=created/);
    await expect(statusText()).resolves.toBe("Team scarf: Reward created.");
    expect(await db.reward.findUniqueOrThrow({ where: { id } })).toMatchObject({ kind: "redeem", costRep: 250n, stock: 3, perUserLimit: 1, active: true });

    const row = () => page.locator(`tr[data-reward="${slug}"]`);
    await row().getByLabel("Change stock of Team scarf by").fill("2");
    await row().getByRole("button", { name: "Adjust stock" }).click();
    await page.waitForURL(/done=stock/);
    await expect(row().getByTestId("stock").textContent()).resolves.toBe("5");

    await row().getByLabel("Change stock of Team scarf by").fill("-6");
    await row().getByRole("button", { name: "Adjust stock" }).click();
    await page.waitForURL(/error=below_zero/);
    await expect(errorText()).resolves.toBe("Team scarf: Stock cannot go below 0: that change would. Nothing changed.");
    await expect(row().getByTestId("stock").textContent()).resolves.toBe("5");

    await row().getByLabel("Change stock of Team scarf by").fill("-5");
    await row().getByRole("button", { name: "Adjust stock" }).click();
    await page.waitForURL(/done=stock/);
    await expect(row().getByTestId("stock").textContent()).resolves.toBe("0");
    expect((await db.reward.findUniqueOrThrow({ where: { id } })).stock).toBe(0);

    await row().getByRole("button", { name: "Deactivate Team scarf" }).click();
    await page.waitForURL(/done=deactivated/);
    await expect(row().getByTestId("reward-status").textContent()).resolves.toBe("Inactive");
    expect(await db.reward.findUniqueOrThrow({ where: { id } })).toMatchObject({ active: false, stock: 0 });
  });

  it("reverses a credit from the user's ledger once, never below zero, never deleting", async () => {
    const externalId = `user_fan${uid()}`;
    const handle = `ledger${uid()}`;
    const user = await db.user.create({ data: { externalId, handle, handleKey: handle.toLowerCase() } });
    const grant = (amount: number, reason: string) =>
      db.$transaction((tx) => award(tx, user.id, { earnKind: "test_grant", amount, source: "club", reason, grantKey: `test:${uid()}` }));
    const big = (await grant(50, "Big grant"))!.entry;
    await new Promise((r) => setTimeout(r, 5));
    const small = (await grant(20, "Small grant"))!.entry;

    await page.goto(`${baseUrl}/admin/users?q=${handle}`);
    await page.locator(`tr[data-user="${externalId}"]`).getByRole("link", { name: "Rep ledger" }).click();
    await page.waitForURL(/\/admin\/users\/ledger\?user=/);
    await expect(page.getByTestId("balance").textContent()).resolves.toBe("70");
    await expect(page.locator("tr[data-entry] [data-testid=amount]").allTextContents()).resolves.toEqual(["+20", "+50"]);

    // A second tab holds the same (soon stale) form.
    const other = await context.newPage();
    await other.goto(page.url());

    const bigRow = (p: Page) => p.locator(`tr[data-entry="${big.id}"]`);
    await bigRow(page).getByLabel("Reason to reverse 50 Rep").fill("Granted by mistake");
    await bigRow(page).getByLabel("Confirm").check();
    await bigRow(page).getByRole("button", { name: "Reverse" }).click();
    await page.waitForURL(/done=reversed/);
    await expect(page.getByTestId("balance").textContent()).resolves.toBe("20");
    await expect(page.locator("tr[data-entry] [data-testid=amount]").allTextContents()).resolves.toEqual(["-50", "+20", "+50"]);
    await expect(bigRow(page).getByTestId("reversed").isVisible()).resolves.toBe(true);
    // The reversal entry itself offers no action.
    const reversal = await db.repEntry.findFirstOrThrow({ where: { userId: user.id, earnKind: "reversal" } });
    expect(reversal).toMatchObject({ amount: -50n, targetId: big.id, grantKey: `reversal:${big.id}`, reason: "Reversed: Granted by mistake", source: "club" });
    await expect(page.locator(`tr[data-entry="${reversal.id}"]`).getByRole("button").count()).resolves.toBe(0);

    // Reversing the same credit again (the stale tab) changes nothing.
    await bigRow(other).getByLabel("Reason to reverse 50 Rep").fill("Again");
    await bigRow(other).getByLabel("Confirm").check();
    await bigRow(other).getByRole("button", { name: "Reverse" }).click();
    await other.waitForURL(/error=already/);
    await expect(errorText(other)).resolves.toBe("That entry was already reversed. Nothing changed.");
    await other.close();
    expect(await db.repEntry.count({ where: { userId: user.id, earnKind: "reversal" } })).toBe(1);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).repBalance).toBe(20n);

    // The fan spends 5: the balance (15) no longer covers the 20 credit, so it cannot be reversed.
    await db.$transaction((tx) =>
      debit(tx, user.id, { earnKind: "reward_redemption", amount: 5, source: "serviceDirect", reason: "Spent", grantKey: `spend:${uid()}` }),
    );
    await page.goto(page.url().replace(/[?&]done=.*$/, ""));
    await page.locator(`tr[data-entry="${small.id}"]`).getByLabel("Reason to reverse 20 Rep").fill("Too late");
    await page.locator(`tr[data-entry="${small.id}"]`).getByLabel("Confirm").check();
    await page.locator(`tr[data-entry="${small.id}"]`).getByRole("button", { name: "Reverse" }).click();
    await page.waitForURL(/error=balance/);
    await expect(errorText()).resolves.toBe("The user's balance is lower than that credit (they spent it), so it cannot be reversed. Nothing changed.");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).repBalance).toBe(15n);
    expect(await db.repEntry.count({ where: { userId: user.id, earnKind: "reversal" } })).toBe(1);
    // The original credits are untouched.
    expect(await db.repEntry.findUniqueOrThrow({ where: { id: big.id } })).toEqual({ ...big, amount: BigInt(big.amount) });
  });
});
