import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { referralsPage, referralsQuery } from "@/lib/features/referrals/schemas";
import { listReferrals } from "@/lib/features/referrals/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My referrals",
      description:
        "The fans who joined with the caller's invite code, newest first (keyset by join time, then id: `limit` 1..50, default 20; `nextCursor` only when more remain), each with its state " +
        "(`joined` → `qualified` / `rewarded`, or `clawed_back` / `expired`), plus the totals by state over every referral and this calendar month's (UTC) cap usage. " +
        "A referee qualifies once onboarding is complete and a first quest is completed, within 30 days of joining: they get 50 Rep, the caller 100 Rep, each once. " +
        "The caller's rewards are capped at 10 per calendar month; past the cap the referee still gets theirs (state `qualified`). " +
        "A rewarded referee whose account deletion is requested within 30 days of joining takes the caller's reward back (a compensating ledger entry; state `clawed_back`).",
      tags: ["Invites"],
      auth: "bearer",
      query: referralsQuery,
      response: referralsPage,
    },
    ({ user, query }) => listReferrals(db, user.id, query),
  ),
});
