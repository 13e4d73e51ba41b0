import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { browserSuite, consoleSessionToken, signedIn } from "./harness";

// Staff roles in the console (lib/auth/roles.ts) and the audit log's page, in headless Chromium: a moderator sees only
// their areas in the navigation, is refused the economy pages (403) and an economy action posted straight to the
// server (nothing changes); an admin's console action is found on /admin/audit by actor and by target; an admin sets
// a fan's staff role through the identity provider, audited.

const baseUrl = inject("baseUrl");
const clerkUrl = inject("fixtures").clerk!.url!;
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const ADMIN = `user_admin${uid()}`;
const MODERATOR = `user_mod${uid()}`;

async function clerkCalls(): Promise<{ method: string; path: string; body: unknown }[]> {
  return (await fetch(`${clerkUrl}/__control/calls`)).json();
}

describe("console roles", () => {
  it("shows a moderator only their areas and refuses the economy pages with a 403", async () => {
    const { context, page } = await signedIn(browser(), MODERATOR, "moderator");
    const ok = await page.goto(`${baseUrl}/admin/moderation`);
    expect(ok!.status()).toBe(200);
    const nav = await page.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents();
    expect(nav).toEqual(["Dashboard", "Users", "Moderation"]);
    await expect(page.getByTestId("staff-role").textContent()).resolves.toBe("moderator");

    for (const path of ["/admin/economy", "/admin/drops", "/admin/payments", "/admin/audit", "/admin/flags", "/admin/users/role?user=user_x&role=admin"]) {
      const res = await page.goto(`${baseUrl}${path}`);
      expect(res!.status(), path).toBe(403);
      expect(new URL(page.url()).pathname).toBe("/admin/forbidden");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Not for your role");
    }
    await context.close();

    const admin = await signedIn(browser(), ADMIN, true);
    await admin.page.goto(`${baseUrl}/admin`);
    const all = await admin.page.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents();
    expect(all).toEqual(expect.arrayContaining(["Economy", "Moderation", "Flags", "Audit log"]));
    await admin.context.close();
  });

  it("refuses a moderator an economy action posted straight to the server: nothing changes", async () => {
    const fan = await db.user.create({ data: { externalId: `user_fan${uid()}` } });
    const adminCookie = `__session=${consoleSessionToken(ADMIN, true)}`;
    const html = await (await fetch(`${baseUrl}/admin/economy`, { headers: { cookie: adminCookie } })).text();
    const actionFields = [...html.matchAll(/name="(\$ACTION_ID_[^"]+)"/g)].map((m) => m[1]!);
    expect(actionFields.length).toBeGreaterThan(0);
    for (const actionField of new Set(actionFields)) {
      const form = new FormData();
      form.set(actionField, "");
      for (const [k, v] of Object.entries({ userId: fan.id, amount: "10", note: "nope", confirm: "yes" })) form.set(k, v);
      const res = await fetch(`${baseUrl}/admin/economy`, {
        method: "POST",
        body: form,
        redirect: "manual",
        headers: { cookie: `__session=${consoleSessionToken(MODERATOR, "moderator")}`, origin: baseUrl },
      });
      expect(res.status).toBeLessThan(400);
      expect(res.headers.get("location") ?? "").toMatch(/\/admin\/forbidden$/);
    }
    expect(await db.walletTransaction.count({ where: { userId: fan.id } })).toBe(0);
    expect(await db.auditEntry.count({ where: { targetType: "user", targetId: fan.id } })).toBe(0);
  });

  it("finds an admin's console action on /admin/audit by actor and by target", async () => {
    const fan = await db.user.create({ data: { externalId: `user_fan${uid()}` } });
    const actor = `user_admin${uid()}`;
    const { context, page } = await signedIn(browser(), actor, true, { width: 1280, height: 900 });
    await page.goto(`${baseUrl}/admin/economy`);
    const form = page.getByRole("region", { name: "Adjust a wallet" }).locator("form").first();
    await form.getByLabel("User id").fill(fan.id);
    await form.getByLabel("Amount (coins, negative to debit)").fill("3.00");
    await form.getByLabel("Reason").fill("audited goodwill");
    await form.getByRole("button", { name: "Adjust" }).click();
    await page.waitForURL(/done=adjusted/);

    await page.goto(`${baseUrl}/admin/audit`);
    await page.getByLabel("Actor (identity-provider id)").fill(actor);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/actor=/);
    const rows = page.locator("tr[data-entry]");
    expect(await rows.count()).toBe(1);
    await expect(rows.getByTestId("entry-action").textContent()).resolves.toBe("wallet.adjust");
    await expect(rows.getByTestId("entry-role").textContent()).resolves.toBe("admin");
    await expect(rows.textContent()).resolves.toMatch(/audited goodwill/);

    await page.goto(`${baseUrl}/admin/audit?${new URLSearchParams({ targetType: "user", targetId: fan.id })}`);
    expect(await page.locator("tr[data-entry]").count()).toBe(1);
    await expect(page.locator("tr[data-entry]").textContent()).resolves.toContain(actor);
    // An action prefix that matches nothing, and a bad date: no rows, a clear notice, never a 500.
    await page.goto(`${baseUrl}/admin/audit?${new URLSearchParams({ actor, action: "drop." })}`);
    expect(await page.locator("tr[data-entry]").count()).toBe(0);
    const bad = await page.goto(`${baseUrl}/admin/audit?from=yesterday`);
    expect(bad!.status()).toBe(200);
    await expect(page.getByRole("main").getByRole("alert").textContent()).resolves.toMatch(/Not a valid from/);
    await context.close();
  });

  it("lets an admin set a fan's staff role, audited; the new role opens only its areas", async () => {
    const target = `user_fan${uid()}`;
    const handle = `plover${uid()}`;
    const row = await db.user.create({ data: { externalId: target, handle, handleKey: handle.toLowerCase() } });
    const actor = `user_admin${uid()}`;
    const { context, page } = await signedIn(browser(), actor, true);
    await page.goto(`${baseUrl}/admin/users?q=${target}`);
    const tr = page.locator(`tr[data-user="${target}"]`);
    await tr.getByLabel(`Staff role of ${target}`).selectOption("moderator");
    await tr.getByRole("button", { name: "Set role" }).click();
    await page.waitForURL(/\/admin\/users\/role\?/);
    await page.getByLabel("Type the user id to confirm").fill(target);
    await page.getByRole("button", { name: "Grant moderator" }).click();
    await page.waitForURL(/done=granted/);
    const patches = (await clerkCalls()).filter((c) => c.method === "PATCH" && c.path === `/v1/users/${target}/metadata`);
    expect(patches.map((c) => c.body)).toEqual([{ public_metadata: { role: "moderator" } }]);
    await expect(page.locator(`tr[data-user="${target}"]`).getByTestId("role").textContent()).resolves.toBe("Staff (moderator)");
    const entries = await db.auditEntry.findMany({ where: { targetType: "user", targetId: row.id } });
    expect(entries).toEqual([
      expect.objectContaining({ actorId: actor, actorRole: "admin", action: "user.role_set", before: { role: "fan" }, after: { role: "moderator" } }),
    ]);
    await context.close();

    // A moderator sees no role controls on the users page and cannot post a role change.
    const mod = await signedIn(browser(), MODERATOR, "moderator");
    await mod.page.goto(`${baseUrl}/admin/users?q=${target}`);
    expect(await mod.page.getByRole("button", { name: "Set role" }).count()).toBe(0);
    await mod.context.close();
  });
});
