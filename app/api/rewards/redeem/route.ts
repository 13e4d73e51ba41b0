import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { redeemBody, redeemResult } from "@/lib/features/rewards/schemas";
import { redeem } from "@/lib/features/rewards/service";
import { errors as rewardsErrors, fulfilmentErrors } from "@/lib/features/rewards/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Redeem a reward with Rep",
      description:
        "Spends the reward's cost from the caller's spendable Rep (a negative ledger entry, shown in GET /api/v1/engage/rep/ledger) and takes one item of its stock, in one transaction. " +
        "The same idempotencyKey never spends twice: a retry with the same reward replays the first result (`replayed: true`, `balance` and `stock` as they are now); the same key with another reward is 409 IDEMPOTENCY_KEY_REUSED. A refused request stores nothing, so its key may be used again. " +
        "Refusals, checked in this order, all 409 and writing nothing: REWARD_NOT_REDEEMABLE (a milestone reward: use POST /api/rewards/claim), OUT_OF_STOCK, REWARD_LIMIT_REACHED (the reward's perUserLimit), INSUFFICIENT_REP (409, not 402: the request is valid but the balance is short). " +
        "Then, by the reward's `fulfilment`: a physical reward needs the caller's shipping address (409 SHIPPING_ADDRESS_REQUIRED, checked last, writing nothing) and is copied onto the claim (status `pending`); " +
        "a voucher reward takes one code of its pool in the same transaction (each code goes to exactly one claim; an empty pool is 409 VOUCHER_POOL_EMPTY and nothing is spent). " +
        "An unknown or inactive reward is 404. The balance never goes negative, and concurrent redemptions of the last item succeed exactly once.",
      tags: ["Rewards"],
      auth: "bearer",
      body: redeemBody,
      rateLimit: "write",
      response: redeemResult,
      errors: [
        fulfilmentErrors.SHIPPING_ADDRESS_REQUIRED,
        fulfilmentErrors.VOUCHER_POOL_EMPTY,
        sharedErrors.NOT_FOUND,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
        rewardsErrors.REWARD_NOT_REDEEMABLE,
        rewardsErrors.OUT_OF_STOCK,
        rewardsErrors.REWARD_LIMIT_REACHED,
        rewardsErrors.INSUFFICIENT_REP,
      ],
    },
    ({ user, body }) => redeem(db, user.id, body),
  ),
});
