import { randomUUID } from "node:crypto";
import type { Locator, Page } from "playwright";
import { expect, inject, it } from "vitest";
import { browserSuite, signedIn } from "./harness";

// The staff console's tiers and badges page (/admin/progress) in headless Chromium: a tier and a badge created through
// its forms (the confirmation box required, an invalid badge refused with nothing written), a tier edited in place,
// each save audited. The default tiers and badges come with the migration.

const baseUrl = inject("baseUrl");
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 8);

async function fill(form: Locator, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    const input = form.locator(`[name=${name}]`);
    if ((await input.evaluate((el) => el.tagName)) === "SELECT") await input.selectOption(value);
    else await input.fill(value);
  }
}

/** Opens the page afresh (so the redirect after the save is a new URL to wait for), then fills and sends a form. */
async function submit(page: Page, formName: string, values: Record<string, string>, button: string, open?: string) {
  await page.goto(`${baseUrl}/admin/progress`);
  if (open) await page.locator("summary", { hasText: open }).first().click();
  const form = page.getByRole("form", { name: formName });
  await fill(form, values);
  await form.locator("[name=confirm]").check();
  await Promise.all([page.waitForURL(/\/admin\/progress\?/), form.getByRole("button", { name: button }).click()]);
}

it("refuses a signed-in fan (403 page)", async () => {
  const { context, page } = await signedIn(browser(), `user_fan${uid()}`, false);
  expect((await page.goto(`${baseUrl}/admin/progress`))!.status()).toBe(403);
  await context.close();
});

it("creates and edits tiers and badges through the forms, confirmed and audited", async () => {
  const { context, page } = await signedIn(browser(), `user_staff${uid()}`, true);
  await page.goto(`${baseUrl}/admin/progress`);
  expect(await page.locator('tr[data-tier="silver"] [data-testid=min-rep]').textContent()).toBe("500");

  const slug = `diamond-${uid()}`;
  const minRep = String(10_000 + Math.floor(Math.random() * 80_000));
  await submit(page, "Create a tier", { slug, name: "Diamond", minRep, perks: "Lounge access, Signed shirt" }, "Create tier");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Tier saved");
  const tier = await db.tier.findUniqueOrThrow({ where: { slug } });
  expect(tier).toMatchObject({ name: "Diamond", minRep: Number(minRep), perks: ["Lounge access", "Signed shirt"] });

  // Edit it in place.
  await submit(page, `Edit tier ${slug}`, { name: "Diamond plus" }, "Save tier", "Edit Diamond");
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Tier saved");
  expect((await db.tier.findUniqueOrThrow({ where: { slug } })).name).toBe("Diamond plus");

  // A streak badge without its days is refused; nothing is created.
  const badgeSlug = `streak-30-${uid()}`;
  const create = () => page.getByRole("form", { name: "Create a badge" });
  await submit(page, "Create a badge", { slug: badgeSlug, name: "Thirty days", description: "A 30-day streak.", rule: "streak" }, "Create badge");
  await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toContain("needs a threshold");
  expect(await db.badge.count({ where: { slug: badgeSlug } })).toBe(0);

  // Without the confirmation box the browser does not send it (required), so nothing is created either.
  await fill(create(), { slug: badgeSlug, name: "Thirty days", description: "A 30-day streak.", rule: "streak", threshold: "30" });
  await create().getByRole("button", { name: "Create badge" }).click();
  expect(await db.badge.count({ where: { slug: badgeSlug } })).toBe(0);

  await submit(
    page,
    "Create a badge",
    { slug: badgeSlug, name: "Thirty days", description: "A 30-day streak.", rule: "streak", threshold: "30" },
    "Create badge",
  );
  await expect(page.getByRole("main").getByRole("status").textContent()).resolves.toContain("Badge saved");
  const badge = await db.badge.findUniqueOrThrow({ where: { slug: badgeSlug } });
  expect(badge).toMatchObject({ rule: "streak", threshold: 30, repeatable: false, active: true });
  expect(await page.locator(`tr[data-badge="${badgeSlug}"] [data-testid=active]`).textContent()).toBe("yes");

  const audited = await db.auditEntry.findMany({ where: { targetId: { in: [tier.id, badge.id] } }, orderBy: { id: "asc" } });
  expect(audited.map((a) => [a.action, a.targetId])).toEqual([
    ["tier.create", tier.id],
    ["tier.update", tier.id],
    ["badge.create", badge.id],
  ]);
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Tiers & badges" }).isVisible()).resolves.toBe(true);
  await context.close();
});
