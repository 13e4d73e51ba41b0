import { replicaHealth } from "../../db/replica";
import { DATABASE_RETRY_AFTER_S } from "../../db/unavailable";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { pingRateLimitStore, rateLimitBackend } from "../../redis/client";
import { appStoreMode, googlePlayMode, stripeMode } from "../../features/payments/service";
import { pingDatabase } from "./queries";
import type { AccessibilityMatrix, Readiness } from "./schemas";
import { within } from "../../time";

// The accessibility matrix the apps and the support site show: what each client supports, per platform.
// Static configuration, reviewed with each release; bump `version` and `updatedAt` when a row changes.

export const ACCESSIBILITY_MATRIX: AccessibilityMatrix = {
  version: "2026.11",
  updatedAt: "2026-11-01",
  standards: ["WCAG 2.2 AA"],
  platforms: ["web", "ios", "android"],
  features: [
    {
      id: "screen-reader",
      label: "Screen readers",
      description: "Every screen, score card and standings table has labels for screen readers.",
      platforms: {
        web: { support: "full", notes: "Tested with NVDA, JAWS and VoiceOver for macOS." },
        ios: { support: "full", notes: "VoiceOver." },
        android: { support: "full", notes: "TalkBack." },
      },
    },
    {
      id: "live-score-announcements",
      label: "Live score announcements",
      description: "Score changes during a game are announced politely, without moving focus.",
      platforms: {
        web: { support: "full", notes: "ARIA live regions." },
        ios: { support: "full", notes: null },
        android: { support: "partial", notes: "Announced when the game screen is open, not from the home feed." },
      },
    },
    {
      id: "text-scaling",
      label: "Text scaling",
      description: "Text follows the system or browser text size up to 200% without loss of content.",
      platforms: {
        web: { support: "full", notes: "Browser zoom and text size." },
        ios: { support: "full", notes: "Dynamic Type, including accessibility sizes." },
        android: { support: "full", notes: "Font size and display size settings." },
      },
    },
    {
      id: "keyboard-navigation",
      label: "Keyboard and switch access",
      description: "Everything can be reached and used without a pointer, with a visible focus indicator.",
      platforms: {
        web: { support: "full", notes: null },
        ios: { support: "partial", notes: "Full Keyboard Access and Switch Control work; mini-games need touch." },
        android: { support: "partial", notes: "Switch Access works; mini-games need touch." },
      },
    },
    {
      id: "reduced-motion",
      label: "Reduced motion",
      description: "Animations, pack openings and confetti are replaced by fades when the system asks for less motion.",
      platforms: {
        web: { support: "full", notes: "prefers-reduced-motion." },
        ios: { support: "full", notes: "Reduce Motion." },
        android: { support: "full", notes: "Remove animations." },
      },
    },
    {
      id: "color-contrast",
      label: "Colour contrast and team colours",
      description: "Text meets 4.5:1 contrast; team colours are adjusted behind text and never carry meaning alone.",
      platforms: {
        web: { support: "full", notes: null },
        ios: { support: "full", notes: "Also follows Increase Contrast." },
        android: { support: "full", notes: null },
      },
    },
    {
      id: "dark-mode",
      label: "Dark mode",
      description: "A dark theme that follows the system setting.",
      platforms: {
        web: { support: "full", notes: "prefers-color-scheme." },
        ios: { support: "full", notes: null },
        android: { support: "full", notes: null },
      },
    },
    {
      id: "captions",
      label: "Captions for video",
      description: "Highlights and locker-room videos show captions when the uploader provided them.",
      platforms: {
        web: { support: "partial", notes: "Only videos with uploaded captions." },
        ios: { support: "partial", notes: "Only videos with uploaded captions; follows the system caption style." },
        android: { support: "partial", notes: "Only videos with uploaded captions." },
      },
    },
    {
      id: "image-descriptions",
      label: "Image descriptions",
      description: "Locker-room posts can carry alt text; collectibles and team logos are described.",
      platforms: {
        web: { support: "full", notes: null },
        ios: { support: "full", notes: null },
        android: { support: "full", notes: null },
      },
    },
    {
      id: "haptics-alternatives",
      label: "Alternatives to haptics and sound",
      description: "Game alerts and quiz timers are also shown on screen, never only felt or heard.",
      platforms: {
        web: { support: "full", notes: null },
        ios: { support: "full", notes: null },
        android: { support: "full", notes: null },
      },
    },
    {
      id: "timed-quizzes",
      label: "Adjustable time limits",
      description: "Daily quiz timers can be extended or switched off for users who need more time.",
      platforms: {
        web: { support: "none", notes: "Timers are fixed; planned." },
        ios: { support: "none", notes: "Timers are fixed; planned." },
        android: { support: "none", notes: "Timers are fixed; planned." },
      },
    },
  ],
  contact: { email: "accessibility@example.com", url: "https://example.com/accessibility" },
};

// Readiness: can this process serve requests that need its dependencies? Each check only asks the dependency to
// answer (PostgreSQL `SELECT 1` on the app's own pool, Redis `PING`), touching no data, within a time limit.
// PostgreSQL is required (down → 503); the rate limiter's Redis is not (down → 200 "degraded": requests proceed
// without limits, as the limiter fails open). Read replicas are reported, never required: one lagging or down sends
// the reads that may lag to the primary (lib/db/replica.ts), so it changes neither the status code nor `status`.

/** Longest a check may take before its dependency counts as unavailable. */
export const READINESS_TIMEOUT_MS = { database: 2_000, rateLimiter: 1_000 } as const;

interface Check {
  status: "ok" | "unavailable";
  latencyMs: number;
}

async function timed(probe: () => Promise<unknown>, timeoutMs: number): Promise<Check> {
  const started = performance.now();
  let status: Check["status"] = "ok";
  try {
    await within(probe(), timeoutMs, () => new Error("timed out"));
  } catch {
    status = "unavailable";
  }
  return { status, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
}

async function runChecks(): Promise<Readiness> {
  const [database, rateLimiter, backend, replica] = await Promise.all([
    timed(() => pingDatabase(), READINESS_TIMEOUT_MS.database),
    timed(() => pingRateLimitStore(), READINESS_TIMEOUT_MS.rateLimiter),
    rateLimitBackend(),
    replicaHealth(),
  ]);
  const stripe = stripeMode();
  const appStore = appStoreMode();
  const googlePlay = googlePlayMode();
  return {
    status: rateLimiter.status === "ok" ? "ok" : "degraded",
    checks: { database, rateLimiter: { ...rateLimiter, backend }, replica },
    providers: {
      stripe: { status: stripe === "unconfigured" ? "unavailable" : "configured", mode: stripe },
      appStore: { status: appStore === "unconfigured" ? "unavailable" : "configured", mode: appStore },
      googlePlay: { status: googlePlay === "unconfigured" ? "unavailable" : "configured", mode: googlePlay },
    },
  };
}

// Concurrent probes share one round of checks, so a burst of them costs the database one `SELECT 1`.
let inflight: Promise<Readiness> | null = null;

/** The read replicas' state (the console shows it): see replicaHealth, lib/db/replica.ts. */
export const replicaState = () => replicaHealth();

/** The dependencies' states, or 503 SERVICE_UNAVAILABLE (each check in `details`) when the database is down. */
export async function checkReadiness(): Promise<Readiness> {
  inflight ??= runChecks().finally(() => (inflight = null));
  const result = await inflight;
  if (result.checks.database.status === "ok") return result;
  const { database, rateLimiter } = result.checks;
  const details = Object.entries({ database, rateLimiter }).map(([name, c]) => ({ path: `checks.${name}`, message: `${c.status} (${c.latencyMs} ms)` }));
  throw new DomainError(sharedErrors.SERVICE_UNAVAILABLE, "Not ready: the database is unavailable.", details, {
    "Retry-After": String(DATABASE_RETRY_AFTER_S),
  });
}
