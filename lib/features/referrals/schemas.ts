import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

export const referralsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const referralState = z.enum(["joined", "qualified", "rewarded", "clawed_back", "expired"]).meta({
  id: "ReferralState",
  description:
    "joined: redeemed the caller's invite, has not qualified yet (onboarding complete and a first quest completed). " +
    "qualified: qualified and got their Rep, but the caller's monthly cap was reached, so the caller got none for it. " +
    "rewarded: qualified; both got their Rep. clawed_back: rewarded, then the account was deleted within 30 days of joining; the caller's reward was taken back. " +
    "expired: did not qualify within 30 days of joining (or the account was deleted first).",
});

export const referral = z
  .object({
    referee: z
      .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
      .meta({ description: "The fan who joined with the caller's invite (public profile fields; null fields once erased)." }),
    state: referralState,
    joinedAt: isoDateTime.meta({ description: "When they redeemed the invite." }),
    qualifiedAt: isoDateTime.nullable(),
    referrerRep: z.number().int().meta({ description: "Rep the caller got for this referral (0 over the monthly cap)." }),
    clawedBackAt: isoDateTime.nullable(),
    clawedBackRep: z.number().int().nullable().meta({ description: "Rep taken back by the claw-back (at most the caller's balance then)." }),
  })
  .meta({ id: "Referral" });

export const referralsPage = pageSchema("referrals", referral)
  .extend({
    totals: z
      .object({
        total: z.number().int(),
        joined: z.number().int(),
        qualified: z.number().int(),
        rewarded: z.number().int(),
        clawedBack: z.number().int(),
        expired: z.number().int(),
        repEarned: z.number().int().meta({ description: "Rep the caller kept from referrals: rewards less claw-backs." }),
      })
      .meta({ description: "Every referral of the caller by state (not just this page)." }),
    cap: z
      .object({
        month: z.string().meta({ description: "The calendar month (UTC), YYYY-MM." }),
        limit: z.number().int(),
        used: z.number().int().meta({ description: "Referrer rewards granted this month (claw-backs still count)." }),
        remaining: z.number().int(),
      })
      .meta({ description: "The caller's monthly cap of referrer rewards." }),
    rules: z
      .object({
        referrerRep: z.number().int(),
        refereeRep: z.number().int(),
        qualifyWindowDays: z.number().int(),
        clawbackWindowDays: z.number().int(),
      })
      .meta({ description: "The amounts and windows in force." }),
  })
  .meta({ id: "ReferralPage" });

export const sweepResult = z
  .object({
    checked: z.number().int().meta({ description: "Referees found qualified but not settled (at most 500 a run)." }),
    settled: z.number().int().meta({ description: "Of them, settled by this run (the others were settled meanwhile, or failed)." }),
    failed: z.number().int().meta({ description: "Settlements that failed (logged; the next run tries again)." }),
  })
  .meta({ id: "ReferralSweepResult" });
