import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { noPaymentProviderReason } from "@/lib/features/payments/service";
import { eligibility } from "@/lib/features/spending/schemas";
import { eligibilityOf, requestCountry } from "@/lib/features/spending/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "May I buy coins and packs, and what is paused",
      description:
        "Whether the caller may buy coins and packs now, and every reason why not, each the error code the purchase would answer: TRADING_RESTRICTED (a sanction), ACCOUNT_DELETION_PENDING, SPENDING_LIMIT_REACHED (a daily or monthly limit has nothing left), PAYMENTS_UNAVAILABLE (coins: no payment provider is configured), WALLET_FROZEN (packs: the wallet owes coins from a refunded top-up), REGION_RESTRICTED (packs: the caller's country setting or the request's country, from the hosting edge, is one where packs are not sold), FEATURE_DISABLED (staff paused top-ups for coins, or packs for packs: a kill switch). " +
        "`paused` lists every feature paused for the caller (marketplace, trades, packs, topups, posting) with its message: the writes of each answer 409 FEATURE_DISABLED. " +
        "Apps ask before showing a store's purchase sheet: a purchase completed in a store is always credited.",
      tags: ["Wallet"],
      auth: "bearer",
      response: eligibility,
    },
    ({ user, req }) => eligibilityOf(db, user.id, requestCountry(req), noPaymentProviderReason()),
  ),
});
