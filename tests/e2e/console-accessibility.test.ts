import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NAV } from "../../app/admin/_lib/nav";
import { award } from "../../lib/core/rep/grants";
import { browserSuite, signedIn } from "./harness";

// Every console page is usable at 1280 px and on a tablet: no serious or critical axe-core violation of WCAG 2.1
// A/AA, and no page wider than the window (a wide table scrolls inside its own container). The pages are the
// console's navigation (app/admin/_lib/nav.ts, so a page added there is checked here) plus the pages reached from
// them, the 403 page and the page an anonymous visitor is bounced to. Also: the keyboard reaches the skip link
// first, and a confirmed write can be made with the keyboard alone.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;

/** What the detail pages need, created in beforeAll. */
const seed = {
  userId: randomUUID(),
  externalId: `user_fan${uid()}`,
  handle: `a11y${uid()}`,
  questId: `q_e2e_a11y_${uid()}`,
  runId: randomUUID(),
};

/** Console pages (signed in as staff), then the pages outside the console shell (with who visits them). */
const CONSOLE_PAGES = [
  ...NAV.map(([href]) => href),
  `/admin/users?q=${seed.handle}`,
  `/admin/users/ledger?user=${seed.userId}`,
  `/admin/users/role?user=${seed.externalId}&role=moderator`,
  `/admin/users/${seed.userId}`,
  `/admin/search?q=${seed.handle}`,
  `/admin/audit?targetType=user&targetId=${seed.userId}`,
  "/admin?range=90",
  `/admin/quests/${seed.questId}`,
  `/admin/sync/${seed.runId}`,
  "/admin/moderation/accounts",
];
const OUTSIDE_PAGES: { name: string; path: string; who: "fan" | "anonymous" }[] = [
  { name: "the 403 page (a signed-in fan)", path: "/admin/forbidden", who: "fan" },
  { name: "the sign-in bounce (no session)", path: "/admin/forbidden", who: "anonymous" },
];
const VIEWPORTS = [
  { name: "1280x800", width: 1280, height: 800 },
  { name: "tablet 768x1024", width: 768, height: 1024 },
];
const FAILING_IMPACTS = new Set(["serious", "critical"]);

beforeAll(async () => {
  await db.user.create({ data: { id: seed.userId, externalId: seed.externalId, handle: seed.handle, handleKey: seed.handle.toLowerCase() } });
  await db.$transaction((tx) => award(tx, seed.userId, { earnKind: "test_grant", amount: 30, source: "club", reason: "Welcome", grantKey: `test:${uid()}` }));
  await db.quest.create({
    data: { id: seed.questId, slug: seed.questId.replace(/_/g, "-"), title: "Accessible quiz", kind: "quiz", cadence: "daily", isDaily: true, quizLength: 3 },
  });
  await db.quizQuestion.create({ data: { id: `qq_${uid()}`, questId: seed.questId, prompt: "Who won?", choices: ["Hawks", "Gulls"], answerIndex: 0 } });
  const counts = { created: 1, updated: 0, archived: 0, unchanged: 2 };
  await db.syncRun.create({
    data: {
      id: seed.runId,
      scope: "teams",
      trigger: "admin",
      actor: STAFF,
      status: "succeeded",
      summary: { leagues: counts, teams: counts, changes: [{ entity: "teams", id: "tm_a11y", change: "created" }] },
      finishedAt: new Date(),
    },
  });
});

/** The serious and critical WCAG 2.1 A/AA violations on the page, one line each: rule, help, and the elements. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ""))
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n    at ${v.nodes.map((n) => JSON.stringify(n.target)).join("\n    at ")}`);
}

/** How far the document is wider than the window (0 when it is not): the page must never scroll sideways. */
const horizontalOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

describe.each(VIEWPORTS)("at $name", (viewport) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedIn(browser(), STAFF, true, { width: viewport.width, height: viewport.height }));
  });
  afterAll(() => context?.close());

  it.each(CONSOLE_PAGES)("%s has no serious or critical violation and no sideways scroll", async (path) => {
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(new URL(path, baseUrl).pathname);
    await expect(page.locator("main h1").count()).resolves.toBe(1);
    expect(await violations(page), `axe on ${path}`).toEqual([]);
    expect(await horizontalOverflow(page), `document wider than ${viewport.width} px on ${path}`).toBeLessThanOrEqual(0);
  });

  it.each(OUTSIDE_PAGES)("$name has no serious or critical violation and no sideways scroll", async ({ path, who }) => {
    const { context: other, page: visitor } = await signedIn(browser(), who === "fan" ? `user_fan${uid()}` : null, false, viewport);
    try {
      const response = await visitor.goto(`${baseUrl}${path}`);
      expect(response!.status()).toBe(403);
      await expect(visitor.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Staff only");
      await expect(visitor.locator("body").innerText()).resolves.toContain(who === "fan" ? "does not have the staff role" : "You are not signed in");
      expect(await violations(visitor), `axe on ${path} as ${who}`).toEqual([]);
      expect(await horizontalOverflow(visitor)).toBeLessThanOrEqual(0);
    } finally {
      await other.close();
    }
  });
});

describe("keyboard", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedIn(browser(), STAFF, true));
  });
  afterAll(() => context?.close());

  /** Whether the focused element matches a CSS selector. */
  const focused = (selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

  /** Press Tab until the focused element matches `selector` (at most `max` presses); fails if it never does. */
  async function tabTo(selector: string, max = 300) {
    for (let i = 0; i < max; i++) {
      if (await focused(selector)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it("reaches the skip link first; activating it moves focus to main, and the next Tab stays in main", async () => {
    await page.goto(`${baseUrl}/admin`);
    await page.keyboard.press("Tab");
    expect(await focused("a.skip-link[href='#main']")).toBe(true);
    await expect(page.evaluate(() => document.activeElement!.textContent)).resolves.toBe("Skip to main content");
    // Shown while focused: inside the window, not off-screen.
    const box = (await page.locator("a.skip-link").boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press("Enter");
    expect(await focused("main#main")).toBe(true);
    await page.keyboard.press("Tab");
    expect(await focused("main *")).toBe(true);
  });

  it("creates an announcement with the keyboard alone, ticking the confirmation box with Space", async () => {
    const title = `Keyboard ${uid()}`;
    await page.goto(`${baseUrl}/admin/announcements`);
    const form = 'form[aria-label="Create an announcement"]';
    await tabTo(`${form} input[name="title"]`);
    await page.keyboard.type(title);
    await page.keyboard.press("Tab");
    expect(await focused(`${form} textarea[name="body"]`)).toBe(true);
    await page.keyboard.type("Typed without a mouse.");
    await tabTo(`${form} input[name="confirm"]`);
    await page.keyboard.press("Space");
    expect(await page.locator(`${form} input[name="confirm"]`).isChecked()).toBe(true);
    await tabTo(`${form} button[type="submit"]`);
    await page.keyboard.press("Enter");
    await page.waitForURL(/done=created/);
    await expect(page.getByRole("status").textContent()).resolves.toBe("Announcement created.");
    expect(await db.announcement.count({ where: { title } })).toBe(1);
  });
});
