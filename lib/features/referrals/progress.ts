import { log } from "../../kernel/log";
import { requestState } from "../../kernel/request-scope";

// The hook: the writes that can make a referee qualify (onboarding complete, a quest completed) note it here, in
// the request's scope; once the handler succeeded (its transactions committed) the referral is settled in its own
// transaction (qualifyReferral), claim-once. Outside a request (a cron, a shared batch) nothing is noted: the
// sweep (GET /api/cron/referrals-settle, every 15 minutes) or the referee's next qualifying write settles it
// (docs/domains/referrals.md).

const KEY = Symbol("referral progress");

/** `userId` may have met the referral's qualifying action in the current request. */
export function noteReferralProgress(userId: string): void {
  requestState(KEY, (afterSuccess) => {
    const users = new Set<string>();
    afterSuccess(async () => {
      const { qualifyReferral } = await import("./service");
      for (const u of users) {
        try {
          await qualifyReferral(u);
        } catch (error) {
          // The request's own write committed; the sweep cron or the referee's next qualifying write settles it.
          log("warn", { msg: "referral qualification failed", userId: u, error: error instanceof Error ? error.message : String(error) });
        }
      }
    });
    return users;
  })?.add(userId);
}
