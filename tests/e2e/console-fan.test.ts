import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { award } from "../../lib/core/rep/grants";
import { browserSuite, signedIn as signedInAs } from "./harness";

// The console's "find anyone" and a fan's page in headless Chromium (docs/decisions/0059): the header's search box
// finds a fan by handle and by e-mail and opens their page; there a wallet adjustment and a Rep reversal, each
// confirmed, land and show in the page's audit section; an id that is no fan's is a clear not-found, not a 500.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;

describe("staff console: find anyone and the fan page", () => {
  let context: BrowserContext;
  let page: Page;
  const handle = `fanpage${uid()}`;
  const email = `Fan.${uid()}@Example.com`;
  let userId = "";
  let creditId = "";

  beforeAll(async () => {
    ({ context, page } = await signedInAs(browser(), STAFF, true, { width: 1280, height: 900 }));
    const user = await db.user.create({
      data: { externalId: `user_fan${uid()}`, handle, handleKey: handle.toLowerCase(), displayName: "Page Tester", email },
    });
    userId = user.id;
    creditId = (await db.$transaction((tx) =>
      award(tx, user.id, { earnKind: "test_grant", amount: 30, source: "club", reason: "Grant", grantKey: `t:${uid()}` }),
    ))!.entry.id;
  });
  afterAll(async () => {
    await context?.close();
  });

  const search = async (q: string) => {
    await page.getByRole("search", { name: "Find anyone" }).getByRole("searchbox").fill(q);
    await page.getByRole("search", { name: "Find anyone" }).getByRole("button", { name: "Find" }).click();
    await page.waitForURL(/\/admin\/search\?q=/);
  };

  it("finds the fan by handle and by e-mail from any page's search box and opens their page", async () => {
    await page.goto(`${baseUrl}/admin`);
    await search(`@${handle}`);
    await expect(page.locator(`tr[data-user="${userId}"]`).isVisible()).resolves.toBe(true);

    await search(email.toUpperCase());
    const row = page.locator(`tr[data-user="${userId}"]`);
    await expect(row.getByRole("cell", { name: email }).isVisible()).resolves.toBe(true);
    await row.getByRole("link", { name: `@${handle}` }).click();
    await page.waitForURL(new RegExp(`/admin/users/${userId}$`));
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`@${handle}`);
    await expect(page.getByRole("heading", { name: "Last sign-ins (identity provider)" }).isVisible()).resolves.toBe(true);
    // The identity provider's stand-in reports one session for every user.
    await expect(page.getByRole("table", { name: "Sign-ins" }).getByRole("cell", { name: "203.0.113.7" }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("deletion").textContent()).resolves.toBe("not requested");
  });

  it("adjusts the wallet and reverses a Rep credit after confirmation; both show in the audit section", async () => {
    await page.goto(`${baseUrl}/admin/users/${userId}`);
    const wallet = page.getByRole("form", { name: "Adjust the wallet" });
    await wallet.getByLabel("Amount (coins, negative to debit)").fill("12.50");
    await wallet.getByLabel("Reason").fill("Goodwill for outage");
    // Without the confirmation box the browser does not submit (required), and the action refuses it anyway.
    await wallet.getByLabel("Confirm").check();
    await wallet.getByRole("button", { name: "Adjust" }).click();
    await page.waitForURL(/done=adjusted/);
    await expect(page.getByRole("main").getByRole("status").first().textContent()).resolves.toBe("Wallet adjusted.");
    await expect(page.getByTestId("wallet-balance").textContent()).resolves.toBe("12.50");
    expect(Number((await db.wallet.findUniqueOrThrow({ where: { userId_currency: { userId, currency: "COIN" } } })).balance)).toBe(1_250);

    const entry = page.locator(`tr[data-entry="${creditId}"]`);
    await entry.getByLabel("Reason to reverse 30 Rep").fill("Granted by mistake");
    await entry.getByLabel("Confirm").check();
    await entry.getByRole("button", { name: "Reverse" }).click();
    await page.waitForURL(/done=reversed/);
    await expect(page.getByTestId("rep-balance").textContent()).resolves.toBe("0");
    await expect(page.locator(`tr[data-entry="${creditId}"]`).getByTestId("reversed").isVisible()).resolves.toBe(true);

    const audit = page.getByRole("table", { name: "Audit entries" });
    await expect(audit.locator("tr[data-audit]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-audit")))).resolves.toEqual([
      "rep.reverse",
      "wallet.adjust",
    ]);
    await expect(audit.locator('tr[data-audit="wallet.adjust"]').textContent()).resolves.toContain("Goodwill for outage");
    await expect(audit.locator('tr[data-audit="rep.reverse"]').textContent()).resolves.toContain(STAFF);
  });

  it("refuses an adjustment past the balance with a clear notice, and posts nothing to the audit log", async () => {
    await page.goto(`${baseUrl}/admin/users/${userId}`);
    const wallet = page.getByRole("form", { name: "Adjust the wallet" });
    await wallet.getByLabel("Amount (coins, negative to debit)").fill("-500");
    await wallet.getByLabel("Reason").fill("Too much");
    await wallet.getByLabel("Confirm").check();
    await wallet.getByRole("button", { name: "Adjust" }).click();
    await page.waitForURL(/error=INSUFFICIENT_FUNDS/);
    await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toBe("The balance does not cover that debit. Nothing changed.");
    expect(await db.auditEntry.count({ where: { targetType: "user", targetId: userId } })).toBe(2);
  });

  it("answers a non-uuid or unknown fan id with a clear not-found page, not a 500", async () => {
    for (const id of ["not-a-uuid", randomUUID()]) {
      const response = await page.goto(`${baseUrl}/admin/users/${id}`);
      expect(response!.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Fan not found");
      await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("No fan has this id.");
    }
  });

  it("links each row of the users look-up to the fan page", async () => {
    await page.goto(`${baseUrl}/admin/users?q=${handle}`);
    await page
      .getByRole("row")
      .filter({ hasText: `@${handle}` })
      .getByRole("link")
      .first()
      .click();
    await page.waitForURL(new RegExp(`/admin/users/${userId}$`));
  });
});

it("refuses a signed-in fan the search and the fan page (403 page)", async () => {
  const { context, page } = await signedInAs(browser(), `user_fan${uid()}`, false, { width: 1280, height: 900 });
  for (const path of ["/admin/search?q=x", `/admin/users/${randomUUID()}`]) {
    const response = await page.goto(`${baseUrl}${path}`);
    expect(response!.status()).toBe(403);
  }
  await context.close();
});
