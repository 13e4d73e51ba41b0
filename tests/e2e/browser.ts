import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "playwright";

// The Chromium the browser tests drive, found the usual ways: CHROMIUM_PATH when set, else Playwright's own browser
// (`npx playwright install chromium`), else the system's (Debian's `chromium` package).

export const NO_BROWSER =
  "e2e: no Chromium found; skipping the browser tests. Install one with `npx playwright install chromium` or `apt-get install -y chromium`, or set CHROMIUM_PATH.";

export function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright has no browser of its own for this platform
  }
  try {
    return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim().split("\n")[0] || undefined;
  } catch {
    return undefined;
  }
}
