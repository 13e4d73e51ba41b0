import { randomUUID } from "node:crypto";
import type { Locator, Page } from "playwright";
import { expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { browserSuite, signedIn } from "./harness";

// The staff console's flags page (/admin/flags) and announcements page (/admin/announcements) in headless Chromium:
// a kill switch paused through the form (confirmed, audited) makes the API refuse with FEATURE_DISABLED, and resumed
// lets it through; an announcement created through the form appears in GET /api/v1/announcements, and ending it
// takes it away. The switch is paused for this test's fan only (kill switches are shared with every other test file).

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 8);

async function fanWithId() {
  const sub = `user_fan${uid()}`;
  const auth = { authorization: `Bearer ${signSessionToken(inject("privateKey"), sub)}` };
  expect((await fetch(`${baseUrl}/api/user`, { headers: auth })).status).toBe(200);
  const { id } = await db.user.findUniqueOrThrow({ where: { externalId: sub } });
  return { sub, auth, id };
}

async function fill(form: Locator, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    const input = form.locator(`[name=${name}]`);
    if ((await input.evaluate((el) => el.tagName)) === "SELECT") await input.selectOption(value);
    else await input.fill(value);
  }
}

/** Opens the page afresh, fills a form, ticks its confirmation box and sends it; waits for the redirect back. */
async function submit(page: Page, path: string, formName: string, values: Record<string, string>, button: string) {
  await page.goto(`${baseUrl}${path}`);
  const form = page.getByRole("form", { name: formName });
  await fill(form, values);
  await form.locator("[name=confirm]").check();
  await Promise.all([page.waitForURL(new RegExp(`${path}\\?`)), form.getByRole("button", { name: button }).click()]);
}

const sell = (auth: Record<string, string>) =>
  fetch(`${baseUrl}/api/v1/marketplace/listings`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: "{}",
  });

it("refuses a signed-in fan (403 page) on both pages", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/flags`))!.status()).toBe(403);
  expect((await page.goto(`${baseUrl}/admin/announcements`))!.status()).toBe(403);
  await context.close();
});

it("pauses the marketplace through the flags page (confirmed, audited): the API refuses with FEATURE_DISABLED, then accepts once resumed", async () => {
  const staff = `user_staff${uid()}`;
  const { context, page } = await signedIn(browser(), staff, true);
  const fan = await fanWithId();
  expect(((await (await sell(fan.auth)).json()) as { error: { code: string } }).error.code).not.toBe("FEATURE_DISABLED");

  // Without the confirmation box the browser does not send the form: nothing changes.
  await page.goto(`${baseUrl}/admin/flags`);
  const form = page.getByRole("form", { name: "Kill switch marketplace" });
  await fill(form, { paused: "yes", userIds: fan.id });
  await form.getByRole("button", { name: "Save" }).click();
  expect(await db.auditEntry.count({ where: { actorId: staff } })).toBe(0);

  await submit(page, "/admin/flags", "Kill switch marketplace", { paused: "yes", userIds: fan.id, message: "Marketplace maintenance." }, "Save");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Feature paused");
  expect(await page.locator('tr[data-feature="marketplace"] [data-testid=state]').textContent()).toBe("paused for 1 user");

  const refused = await sell(fan.auth);
  expect(refused.status).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: "FEATURE_DISABLED", message: "Marketplace maintenance." } });
  const config = (await (await fetch(`${baseUrl}/api/v1/config`, { headers: fan.auth })).json()) as { data: { features: Record<string, unknown> } };
  expect(config.data.features.marketplace).toEqual({ enabled: false, message: "Marketplace maintenance." });
  // Reads stay open.
  expect((await fetch(`${baseUrl}/api/v1/marketplace/listings`, { headers: fan.auth })).status).toBe(200);

  await submit(page, "/admin/flags", "Kill switch marketplace", { paused: "no" }, "Save");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Feature resumed");
  expect(await page.locator('tr[data-feature="marketplace"] [data-testid=state]').textContent()).toBe("live");
  const again = await sell(fan.auth);
  expect(((await again.json()) as { error: { code: string } }).error.code).not.toBe("FEATURE_DISABLED");

  const audited = await db.auditEntry.findMany({ where: { actorId: staff }, orderBy: { id: "asc" } });
  expect(audited.map((a) => [a.action, a.targetId])).toEqual([
    ["config.feature.pause", "marketplace"],
    ["config.feature.resume", "marketplace"],
  ]);

  // A flag created and edited through the page.
  const key = `e2e_${uid()}`;
  await submit(page, "/admin/flags", "Create a flag", { key, description: "From the console", rolloutPercent: "25" }, "Create flag");
  expect(await page.locator(`tr[data-flag="${key}"] [data-testid=rollout]`).textContent()).toBe("25%");
  await submit(page, "/admin/flags", `Edit flag ${key}`, { rolloutPercent: "100" }, "Save flag");
  expect(await page.locator(`tr[data-flag="${key}"] [data-testid=rollout]`).textContent()).toBe("100%");
  const anonymous = (await (await fetch(`${baseUrl}/api/v1/config`)).json()) as { data: { flags: Record<string, boolean> } };
  expect(anonymous.data.flags[key]).toBe(true);
  await db.featureFlag.delete({ where: { key } });
  await context.close();
});

it("creates an announcement through the page (confirmed, audited): it appears in GET /api/v1/announcements; ending it takes it away", async () => {
  const staff = `user_staff${uid()}`;
  const { context, page } = await signedIn(browser(), staff, true);
  const title = `Console news ${uid()}`;
  const listed = async () => {
    const res = (await (await fetch(`${baseUrl}/api/v1/announcements`)).json()) as { data: { announcements: { id: string; title: string }[] } };
    return res.data.announcements.filter((a) => a.title === title);
  };

  await submit(
    page,
    "/admin/announcements",
    "Create an announcement",
    { title, body: "Gates open at 6 pm.", linkUrl: "https://example.com/gates" },
    "Create announcement",
  );
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Announcement created");
  const [shown] = await listed();
  expect(shown).toMatchObject({ title, body: "Gates open at 6 pm.", linkUrl: "https://example.com/gates" });
  expect(await page.locator(`tr[data-announcement="${shown!.id}"] [data-testid=status]`).textContent()).toBe("running");

  await submit(page, "/admin/announcements", `End ${title}`, {}, "End now");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Announcement ended");
  expect(await listed()).toEqual([]);
  expect(await page.locator(`tr[data-announcement="${shown!.id}"] [data-testid=status]`).textContent()).toBe("ended");

  const audited = await db.auditEntry.findMany({ where: { actorId: staff }, orderBy: { id: "asc" } });
  expect(audited.map((a) => [a.action, a.targetId])).toEqual([
    ["announcement.create", shown!.id],
    ["announcement.end", shown!.id],
  ]);
  await context.close();
});
