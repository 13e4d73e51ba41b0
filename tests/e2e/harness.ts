import { chromium, type Browser, type BrowserContext, type Page } from "playwright";
import { afterAll, beforeAll, inject } from "vitest";
import type { StaffRole } from "../../lib/auth/roles";
import { signSessionToken } from "../../lib/auth/sign";
import { createDb } from "../../lib/db/client";
import { CONSOLE_ORIGIN } from "./setup";

// What every browser test starts from: the run's Chromium, and a context signed in as a console user.

/** Headless Chromium (the one tests/e2e/setup.ts found), without the background traffic a test does not want. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject("chromiumPath"),
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
}

/**
 * What a browser test file shares, opened before its tests and closed after them: the run's Chromium (`browser()`)
 * and a client of the browser tests' database (`db`; it is not seeded: tests insert what they need).
 */
export function browserSuite() {
  const db = createDb(inject("databaseUrl"), 2);
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await db.$disconnect();
  });
  return { db, browser: () => browser! };
}

/** Who a console session is: true for an admin, false for a fan, or a staff role (lib/auth/roles.ts). */
export type ConsoleRole = boolean | StaffRole;

/** A Clerk browser session's token: it names the console's origin in azp. */
export const consoleSessionToken = (sub: string, role: ConsoleRole) =>
  signSessionToken(inject("privateKey"), sub, { ...(typeof role === "string" ? { role } : { admin: role }), extra: { azp: CONSOLE_ORIGIN } });

/** A browser context whose Clerk session cookie (`__session`) holds a session JWT for `sub` (none for null). */
export async function signedIn(
  browser: Browser,
  sub: string | null,
  admin: ConsoleRole = false,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  if (sub) {
    await context.addCookies([{ name: "__session", value: consoleSessionToken(sub, admin), url: inject("baseUrl"), httpOnly: true, sameSite: "Lax" }]);
  }
  return { context, page: await context.newPage() };
}
