import type { Db } from "../../db/client";
import { grantStarterPack } from "../economy/service";
import { log } from "../../kernel/log";
import { noteReferralProgress } from "../referrals/service";
import type { OnboardingInput } from "../../core/users/schemas";
import { recordOnboarding } from "../../core/users/service";

// Onboarding (POST /api/user/onboarding) looks across domains: the account records it (lib/core/users), then what follows
// from it elsewhere: a referral it may qualify (lib/features/referrals, settled once the handler succeeded) and the free starter
// pack (lib/features/economy). lib/core/users, which those domains build on, imports none of them.

/**
 * Completes onboarding. The free starter pack is granted after the account's transaction has committed: if that
 * fails, onboarding still succeeds (freePackId null) and the next onboarding call retries it.
 */
export async function completeOnboarding(db: Db, userId: string, input: OnboardingInput = {}) {
  await recordOnboarding(db, userId, input);
  noteReferralProgress(userId);

  let freePackId: string | null = null;
  try {
    freePackId = await grantStarterPack(db, userId);
    if (freePackId === null) log("warn", { msg: "onboarding pack grant degraded: no active free starter pack" });
  } catch (error) {
    log("warn", { msg: "onboarding pack grant failed", error: error instanceof Error ? error.message : String(error) });
  }
  return { completed: true as const, freePackId };
}
