import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { consoleSessionToken, browserSuite, signedIn as signedInAs } from "./harness";

// The staff console in real headless Chromium (Debian's, driven by playwright) against `next start`.

const baseUrl = inject("baseUrl");
const clerkUrl = inject("fixtures").clerk!.url!;
const { db, browser } = browserSuite();
const uid = () => randomUUID().replace(/-/g, "").slice(0, 12);
const STAFF = `user_staff${uid()}`;
const sessionToken = consoleSessionToken;

const signedIn = (sub: string | null, admin = false) => signedInAs(browser(), sub, admin);

async function publicTeamSlugs(): Promise<string[]> {
  const res = await fetch(`${baseUrl}/api/teams`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { teams: { slug: string }[] }).teams.map((t) => t.slug);
}

async function clerkCalls(): Promise<{ method: string; path: string; body: any }[]> {
  return (await fetch(`${clerkUrl}/__control/calls`)).json();
}

describe("access", () => {
  it("sends a visitor without a session to the hosted sign-in page, with a way back", async () => {
    const res = await fetch(`${baseUrl}/admin/teams`, { redirect: "manual" });
    expect([303, 307, 308]).toContain(res.status);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("https://accounts.example.com/sign-in");
    expect(location.searchParams.get("redirect_url")).toBe("https://api.example.com/admin/teams");

    // In the browser: the navigation is redirected to the hosted sign-in page (which does not resolve here, so
    // the navigation itself ends in a DNS error; what matters is where the browser was sent). Playwright's
    // routing does not see a redirect's follow-up request, so the page cannot be stubbed.
    const { context, page } = await signedIn(null);
    const signInRequest = page.waitForRequest((r) => new URL(r.url()).hostname === "accounts.example.com");
    await page.goto(`${baseUrl}/admin`).catch(() => undefined);
    const sent = await signInRequest;
    expect(sent.url()).toBe("https://accounts.example.com/sign-in?redirect_url=https%3A%2F%2Fapi.example.com%2Fadmin");
    expect(sent.redirectedFrom()?.url()).toBe(`${baseUrl}/admin`);
    await context.close();
  });

  it("treats an expired or forged session like no session", async () => {
    const expired = signSessionToken(inject("privateKey"), STAFF, { admin: true, ttlSeconds: -60 });
    const res = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${expired}` } });
    expect(res.headers.get("location")).toMatch(/^https:\/\/accounts\.example\.com\/sign-in/);
    const forged = sessionToken(STAFF, true).replace(/\.[^.]+$/, ".AAAA");
    const res2 = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${forged}` } });
    expect(res2.headers.get("location")).toMatch(/^https:\/\/accounts\.example\.com\/sign-in/);
  });

  it("refuses a signed-in fan with a 403 page and no console content", async () => {
    const { context, page } = await signedIn(`user_fan${uid()}`, false);
    for (const path of ["/admin", "/admin/teams", "/admin/users", "/admin/sync"]) {
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response!.status()).toBe(403);
      expect(new URL(page.url()).pathname).toBe("/admin/forbidden");
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Staff only");
      const text = await page.locator("body").innerText();
      expect(text).not.toMatch(/Dashboard|Live teams|Sync leagues|Grant admin|Signed in as/);
    }
    await context.close();
  });

  it("re-checks staff inside server actions called directly", async () => {
    // A staff page carries the archive action's id; a fan posting it straight to the server changes nothing.
    const leagueId = `lg_e2e_${uid()}`;
    const teamId = `tm_e2e_${uid()}`;
    await db.league.create({ data: { id: leagueId, slug: leagueId.replace(/_/g, "-"), name: `Action League ${leagueId}` } });
    await db.team.create({ data: { id: teamId, slug: teamId.replace(/_/g, "-"), name: `Action Team ${teamId}`, leagueId } });
    const html = await (
      await fetch(`${baseUrl}/admin/teams?q=${teamId.replace(/_/g, "-")}`, { headers: { cookie: `__session=${sessionToken(STAFF, true)}` } })
    ).text();
    const actionField = /name="(\$ACTION_ID_[^"]+)"/.exec(html)?.[1];
    expect(actionField).toBeDefined();

    for (const cookie of [`__session=${sessionToken(`user_fan${uid()}`, false)}`, ""]) {
      const form = new FormData();
      form.set(actionField!, "");
      form.set("teamId", teamId);
      const res = await fetch(`${baseUrl}/admin/teams`, { method: "POST", body: form, redirect: "manual", headers: { cookie, origin: baseUrl } });
      expect(res.status).toBeLessThan(400);
      expect(res.headers.get("location") ?? "").toMatch(cookie ? /\/admin\/forbidden$/ : /^https:\/\/accounts\.example\.com\/sign-in/);
      expect((await db.team.findUniqueOrThrow({ where: { id: teamId } })).archivedAt).toBeNull();
    }
  });
});

describe("staff console", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn(STAFF, true));
  });
  afterAll(async () => {
    await context?.close();
  });

  it("opens the dashboard with the counts", async () => {
    const response = await page.goto(`${baseUrl}/admin`);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Dashboard");
    for (const id of ["count-users", "count-leagues", "count-live-teams", "count-archived-teams"]) {
      expect(await page.getByTestId(id).textContent()).toMatch(/^\d+$/);
    }
    await expect(page.getByText(`Signed in as ${STAFF}`).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link").allTextContents()).resolves.toEqual([
      "Dashboard",
      "Teams",
      "Leagues",
      "Sync",
      "Live",
      "Users",
      "Quests",
      "Rewards",
      "Fulfilment",
      "Moderation",
      "Economy",
      "Market",
      "Drops",
      "Tiers & badges",
      "Contests",
      "Payments",
      "Deletions",
      "Push",
      "Trends",
      "Flags",
      "Announcements",
      "Audit log",
    ]);
  });

  it("runs a sync and shows the run, its counts, its changes and the history", async () => {
    await page.goto(`${baseUrl}/admin/sync`);
    await page.getByRole("button", { name: "Sync leagues" }).click();
    await page.waitForURL(/\/admin\/sync\?run=[0-9a-f-]{36}$/);
    const run = page.getByTestId("sync-run");
    expect(await run.getAttribute("data-status")).toBe("succeeded");
    await expect(run.getByRole("heading", { level: 2 }).textContent()).resolves.toBe("Leagues sync: succeeded");
    // The e2e database starts empty: the first run creates rows.
    const created = Number(await run.locator('tr[data-entity="leagues"] td[data-count="created"]').textContent());
    expect(created).toBeGreaterThan(0);
    expect(await run.getByRole("list", { name: "Changes" }).getByRole("listitem").count()).toBeGreaterThan(0);
    await expect(run.getByRole("list", { name: "Changes" }).textContent()).resolves.toMatch(/created league/);
    const firstRun = new URL(page.url()).searchParams.get("run")!;
    const history = page.getByTestId("sync-history");
    expect(await history.locator(`tr[data-run="${firstRun}"]`).textContent()).toContain(STAFF);

    await page.getByRole("button", { name: "Sync teams" }).click();
    await page.waitForURL((url) => url.searchParams.get("run") !== null && url.searchParams.get("run") !== firstRun);
    const second = page.getByTestId("sync-run");
    expect(await second.getAttribute("data-status")).toBe("succeeded");
    const teams = second.locator('tr[data-entity="teams"]');
    const teamChanges =
      Number(await teams.locator('td[data-count="created"]').textContent()) + Number(await teams.locator('td[data-count="updated"]').textContent());
    const teamUnchanged = Number(await teams.locator('td[data-count="unchanged"]').textContent());
    expect(teamChanges + teamUnchanged).toBeGreaterThan(0);
    const secondRun = new URL(page.url()).searchParams.get("run")!;
    await expect(page.getByTestId("sync-history").locator("tbody tr").count()).resolves.toBeGreaterThanOrEqual(2);

    const runs = await db.syncRun.findMany({ where: { id: { in: [firstRun, secondRun] } } });
    expect(runs.map((r) => [r.scope, r.trigger, r.actor, r.status]).sort()).toEqual([
      ["leagues", "admin", STAFF, "succeeded"],
      ["teams", "admin", STAFF, "succeeded"],
    ]);

    // The run's own page, linked from the history.
    await page.getByTestId("sync-history").locator(`tr[data-run="${firstRun}"] a`).click();
    await page.waitForURL(`${baseUrl}/admin/sync/${firstRun}`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Leagues sync: succeeded");
    await page.goto(`${baseUrl}/admin`);
    await expect(page.getByTestId("last-sync").textContent()).resolves.toMatch(/teams sync, succeeded/);
  });

  it("archives a team (gone from GET /api/teams) and restores it", async () => {
    const leagueId = `lg_e2e_${uid()}`;
    const teamId = `tm_e2e_${uid()}`;
    const slug = teamId.replace(/_/g, "-");
    const name = `Harbour Gulls ${uid()}`;
    await db.league.create({ data: { id: leagueId, slug: leagueId.replace(/_/g, "-"), name: `Archive League ${leagueId}` } });
    await db.team.create({ data: { id: teamId, slug, name, leagueId } });
    expect(await publicTeamSlugs()).toContain(slug);

    await page.goto(`${baseUrl}/admin/teams`);
    await page.getByLabel("Name or slug").fill(name);
    await page.getByLabel("League").selectOption(leagueId);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/admin\/teams\?q=/);
    const row = page.locator(`tr[data-team="${slug}"]`);
    expect(await row.getByRole("cell").nth(3).textContent()).toBe("Live");

    await row.getByRole("button", { name: `Archive ${name}` }).click();
    await page.waitForURL(/done=archived/);
    await expect(page.getByRole("status").textContent()).resolves.toBe(`${name} archived.`);
    // Archived teams are hidden unless asked for.
    expect(await page.locator(`tr[data-team="${slug}"]`).count()).toBe(0);
    expect(await publicTeamSlugs()).not.toContain(slug);
    expect((await fetch(`${baseUrl}/api/teams/${teamId}`)).status).toBe(404);

    await page.getByLabel("Show archived").check();
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/archived=1/);
    const archivedRow = page.locator(`tr[data-team="${slug}"]`);
    expect(await archivedRow.getByRole("cell").nth(3).textContent()).toMatch(/^Archived \d{4}-/);
    await archivedRow.getByRole("button", { name: `Restore ${name}` }).click();
    await page.waitForURL(/done=restored/);
    await expect(page.getByRole("status").textContent()).resolves.toBe(`${name} restored.`);
    expect(await publicTeamSlugs()).toContain(slug);
    // Team detail is cached per process for TEAM_CACHE_TTL_MS (5 s): the restored team's detail answers again
    // within that delay (the list above is not cached and shows it at once).
    await expect.poll(async () => (await fetch(`${baseUrl}/api/teams/${teamId}`)).status, { timeout: 8_000, interval: 500 }).toBe(200);
    // Each change is audited with who made it and the role used (a console action: no request id).
    const audited = await db.auditEntry.findMany({ where: { targetType: "team", targetId: teamId }, orderBy: { id: "asc" } });
    expect(audited.map((a) => [a.action, a.actorId, a.actorRole, a.requestId])).toEqual([
      ["team.archive", STAFF, "admin", null],
      ["team.restore", STAFF, "admin", null],
    ]);

    await page.goto(`${baseUrl}/admin/leagues`);
    const leagueRow = page.locator(`tr[data-league="${leagueId.replace(/_/g, "-")}"]`);
    expect(await leagueRow.getByRole("cell").allTextContents()).toEqual(["—", "—", "manual", "1", "0"]);
  });

  it("grants and revokes the staff role through the identity provider", async () => {
    const target = `user_fan${uid()}`;
    const handle = `gull${uid()}`;
    await db.user.create({ data: { externalId: target, handle, handleKey: handle.toLowerCase(), email: `${handle}@example.com` } });

    await page.goto(`${baseUrl}/admin/users`);
    await page.getByLabel("Handle, email or external id").fill(`@${handle.toUpperCase()}`);
    await page.getByRole("button", { name: "Look up" }).click();
    await page.waitForURL(/\/admin\/users\?q=/);
    const row = page.locator(`tr[data-user="${target}"]`);
    await expect(row.getByTestId("role").textContent()).resolves.toBe("Fan");

    await row.getByRole("button", { name: "Grant admin" }).click();
    await confirmRoleChange(target, "Grant admin");
    await page.waitForURL(/done=granted/);
    await expect(page.getByRole("status").textContent()).resolves.toMatch(/next session refresh/);
    const patches = (await clerkCalls()).filter((c) => c.method === "PATCH" && c.path === `/v1/users/${target}/metadata`);
    expect(patches.map((c) => c.body)).toEqual([{ public_metadata: { role: "admin" } }]);
    await expect(page.locator(`tr[data-user="${target}"]`).getByTestId("role").textContent()).resolves.toBe("Staff (admin)");

    // Lookup by email and by external id find the same user.
    await page.goto(`${baseUrl}/admin/users?q=${encodeURIComponent(`${handle}@EXAMPLE.com`)}`);
    expect(await page.locator(`tr[data-user="${target}"]`).count()).toBe(1);
    await page.goto(`${baseUrl}/admin/users?q=${target}`);
    await page.locator(`tr[data-user="${target}"]`).getByRole("button", { name: "Revoke admin" }).click();
    await confirmRoleChange(target, "Revoke admin");
    await page.waitForURL(/done=revoked/);
    const after = (await clerkCalls()).filter((c) => c.method === "PATCH" && c.path === `/v1/users/${target}/metadata`);
    expect(after.map((c) => c.body)).toEqual([{ public_metadata: { role: "admin" } }, { public_metadata: { role: null } }]);
    await expect(page.locator(`tr[data-user="${target}"]`).getByTestId("role").textContent()).resolves.toBe("Fan");

    // Staff cannot revoke their own role.
    await page.goto(`${baseUrl}/admin/users?q=${STAFF}`);
    await expect(page.locator(`tr[data-user="${STAFF}"]`).getByRole("button", { name: "Revoke admin" }).count()).resolves.toBe(0);
  });

  /** The confirmation step: a wrong id changes nothing; the right one goes through. */
  async function confirmRoleChange(target: string, button: string) {
    await page.waitForURL(/\/admin\/users\/role\?/);
    await expect(page.getByTestId("confirm-user").textContent()).resolves.toBe(target);
    const roleWrites = async () => (await clerkCalls()).filter((c) => c.method === "PATCH" && c.path === `/v1/users/${target}/metadata`).length;
    const before = await roleWrites();
    await page.getByLabel("Type the user id to confirm").fill(`${target}x`);
    await page.getByRole("button", { name: button }).click();
    await page.waitForURL(/error=confirm/);
    await expect(page.getByText("The user id you typed does not match").isVisible()).resolves.toBe(true);
    expect(await roleWrites()).toBe(before);
    await page.getByLabel("Type the user id to confirm").fill(target);
    await page.getByRole("button", { name: button }).click();
  }

  it("a role change posted without the typed confirmation changes nothing (no one-click grant)", async () => {
    const target = `user_fan${uid()}`;
    const handle = `tern${uid()}`;
    await db.user.create({ data: { externalId: target, handle, handleKey: handle.toLowerCase() } });
    const cookie = `__session=${sessionToken(STAFF, true)}`;
    const html = await (await fetch(`${baseUrl}/admin/users/role?user=${target}&grant=1`, { headers: { cookie } })).text();
    const actionField = /name="(\$ACTION_ID_[^"]+)"/.exec(html)?.[1];
    expect(actionField).toBeDefined();
    const before = (await clerkCalls()).filter((c) => c.path === `/v1/users/${target}/metadata`).length;
    for (const confirm of [undefined, "", "user_someone_else"]) {
      const form = new FormData();
      form.set(actionField!, "");
      form.set("externalId", target);
      form.set("grant", "1");
      if (confirm !== undefined) form.set("confirm", confirm);
      const res = await fetch(`${baseUrl}/admin/users/role`, { method: "POST", body: form, redirect: "manual", headers: { cookie, origin: baseUrl } });
      expect(res.status).toBeLessThan(400);
      expect(res.headers.get("location") ?? "").toMatch(/\/admin\/users\/role\?.*error=confirm/);
    }
    expect((await clerkCalls()).filter((c) => c.path === `/v1/users/${target}/metadata`).length).toBe(before);
  });

  it("console pages may not be framed", async () => {
    const res = await fetch(`${baseUrl}/admin/users`, { headers: { cookie: `__session=${sessionToken(STAFF, true)}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("refuses a staff session from an origin outside CLERK_AUTHORIZED_PARTIES, or with none", async () => {
    for (const extra of [{}, { azp: "https://evil.example.com" }]) {
      const t = signSessionToken(inject("privateKey"), STAFF, { admin: true, extra });
      const res = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${t}` } });
      expect([303, 307, 308]).toContain(res.status);
      expect(res.headers.get("location") ?? "").toMatch(/^https:\/\/accounts\.example\.com\/sign-in/);
    }
  });

  it("renders a readable dashboard (screenshot)", async () => {
    await page.goto(`${baseUrl}/admin`);
    await page.screenshot({ path: "/tmp/console-dashboard.png", fullPage: true });
  });
});
