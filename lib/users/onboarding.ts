import { env } from "../env";
import type { Db } from "../db/client";
import { DomainError, notFound } from "../http/errors";
import { log } from "../http/log";
import { applyProfilePatch, currentTermsVersion, lockUser, TX } from "./profile";
import type { OnboardingInput } from "./schemas";

// Onboarding: optional profile input, first-time onboardedAt, and the free starter pack granted once per user.
// The grant is a PackPurchase with grantKey "onboarding-free-pack", inserted with ON CONFLICT DO NOTHING on the
// unique (user_id, grant_key), so concurrent onboardings grant exactly once and all report the same purchase.
// The grant runs after the profile transaction has committed: if it fails, onboarding still succeeds (freePackId
// null) and the next onboarding call retries it.

export const ONBOARDING_GRANT_KEY = "onboarding-free-pack";

export function termsMismatch(sent: string, path: string) {
  const current = currentTermsVersion();
  return new DomainError(
    "TERMS_VERSION_MISMATCH",
    `The current Terms of Use version is "${current}"; "${sent}" cannot be accepted.`,
    [{ path, message: `Expected the current version "${current}"` }],
  );
}

/** The user's onboarding pack purchase id: the existing one, else a new grant of the active starter pack, else null. */
export async function grantStarterPack(db: Db, userId: string): Promise<string | null> {
  const where = { userId_grantKey: { userId, grantKey: ONBOARDING_GRANT_KEY } };
  const existing = await db.packPurchase.findUnique({ where, select: { id: true } });
  if (existing) return existing.id;
  const pack = await db.pack.findFirst({ where: { isFreeStarter: true, active: true }, orderBy: { id: "asc" }, select: { id: true } });
  if (!pack) return null;
  await db.packPurchase.createMany({
    data: [{ userId, packId: pack.id, source: "onboarding", grantKey: ONBOARDING_GRANT_KEY }],
    skipDuplicates: true,
  });
  const granted = await db.packPurchase.findUnique({ where, select: { id: true } });
  return granted?.id ?? null;
}

export async function completeOnboarding(db: Db, userId: string, input: OnboardingInput = {}) {
  const { acceptTermsVersion, ...patch } = input;
  if (acceptTermsVersion !== undefined && acceptTermsVersion !== currentTermsVersion()) {
    throw termsMismatch(acceptTermsVersion, "body.acceptTermsVersion");
  }
  await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    await applyProfilePatch(tx, userId, patch);
    const now = new Date();
    if (acceptTermsVersion !== undefined) {
      await tx.user.updateMany({
        where: { id: userId, OR: [{ ugcTermsVersion: null }, { ugcTermsVersion: { not: acceptTermsVersion } }] },
        data: { ugcTermsVersion: acceptTermsVersion, ugcTermsAcceptedAt: now },
      });
    }
    // First time only: a repeat onboarding keeps the original timestamp.
    await tx.user.updateMany({ where: { id: userId, onboardedAt: null }, data: { onboardedAt: now } });
  }, TX);

  let freePackId: string | null = null;
  try {
    freePackId = await grantStarterPack(db, userId);
    if (freePackId === null) log("warn", { msg: "onboarding pack grant degraded: no active free starter pack" });
  } catch (error) {
    log("warn", { msg: "onboarding pack grant failed", error: error instanceof Error ? error.message : String(error) });
  }
  return { completed: true as const, freePackId };
}

export async function isOnboarded(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { onboardedAt: true } });
  if (!user) throw notFound("User");
  return { isOnboarded: user.onboardedAt !== null };
}

/** POST /api/user/terms: records acceptance of the current version; re-accepting keeps the first acceptedAt. */
export async function acceptTerms(db: Db, userId: string, version: string) {
  if (version !== currentTermsVersion()) throw termsMismatch(version, "body.version");
  await db.user.updateMany({
    where: { id: userId, OR: [{ ugcTermsVersion: null }, { ugcTermsVersion: { not: version } }, { ugcTermsAcceptedAt: null }] },
    data: { ugcTermsVersion: version, ugcTermsAcceptedAt: new Date() },
  });
  const user = await db.user.findUnique({ where: { id: userId }, select: { ugcTermsVersion: true, ugcTermsAcceptedAt: true } });
  if (!user) throw notFound("User");
  return { version: user.ugcTermsVersion!, acceptedAt: user.ugcTermsAcceptedAt!.toISOString() };
}

export function getCurrentTerms() {
  const url = env().UGC_TERMS_URL;
  return { currentVersion: currentTermsVersion(), ...(url ? { url } : {}) };
}
