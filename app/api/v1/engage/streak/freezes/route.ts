import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as progressErrors } from "@/lib/features/progress/errors";
import { FREEZE_PRICE_REP, FREEZES_HELD_MAX, freezePurchase } from "@/lib/features/progress/schemas";
import { buyFreeze } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Buy a streak freeze",
      description:
        `Buys one streak freeze for ${FREEZE_PRICE_REP} spendable Rep (a spending entry in the Rep ledger: Rep earned, and so the tier, stay as they are). ` +
        `At most ${FREEZES_HELD_MAX} held: one more is 409 FREEZE_LIMIT_REACHED (checked under the account's lock, so concurrent purchases cannot pass it); a balance below the price is 409 INSUFFICIENT_REP. ` +
        "A freeze saves one missed UTC day that began after it was bought. With an Idempotency-Key a retry answers the first purchase again (Idempotent-Replayed: true).",
      tags: ["Quests"],
      auth: "bearer",
      idempotency: "optional",
      bodyRequired: false,
      rateLimit: "write",
      status: 201,
      response: freezePurchase,
      errors: [progressErrors.FREEZE_LIMIT_REACHED, progressErrors.INSUFFICIENT_REP, sharedErrors.IDEMPOTENCY_KEY_REUSED],
    },
    ({ user, idempotency }) => buyFreeze(db, user.id, idempotency),
  ),
});
