import type { AuthUser } from "../auth/users";

// Kill switches, as the pipeline sees them: a route names the feature it belongs to (`feature: "marketplace"` in its
// spec), and before the handler runs the pipeline asks the registered checker whether that feature is paused for
// this caller; paused answers 409 FEATURE_DISABLED. The pipeline knows no feature and no storage: the checker is
// registered once per process (lib/features/config/gate.ts, from lib/startup.ts and on import), on globalThis so every route
// bundle sees the same one.

/**
 * Why a feature is paused for this caller (shown to the client), or null when it is available. `null` user: paused for
 * everyone (a scoped pause never applies), which is what a cron acting for a feature asks (e.g. lib/features/drops/ordering.ts).
 */
export type FeatureCheck = (feature: string, user: Pick<AuthUser, "id"> | null) => Promise<string | null> | string | null;

const g = globalThis as unknown as { __featureCheck?: FeatureCheck };

export function registerFeatureCheck(check: FeatureCheck): void {
  g.__featureCheck = check;
}

/** The registered checker. None registered: a route naming a feature is a server bug (500), never silently open. */
export function featureCheck(): FeatureCheck {
  if (!g.__featureCheck) throw new Error("No feature check registered (lib/features/config/gate.ts): kill switches cannot be evaluated");
  return g.__featureCheck;
}
