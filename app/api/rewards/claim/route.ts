import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { claimBody, claimResult } from "@/lib/features/rewards/schemas";
import { claim } from "@/lib/features/rewards/service";
import { errors as rewardsErrors, fulfilmentErrors } from "@/lib/features/rewards/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Claim a milestone reward",
      description:
        "Claims a milestone reward the caller has unlocked: free, once per account (concurrent claims yield one). " +
        "Refusals, checked in this order, all 409 and writing nothing: REWARD_NOT_CLAIMABLE (a redeem reward: use POST /api/rewards/redeem), ALREADY_CLAIMED, MILESTONE_NOT_REACHED (progress is in GET /api/rewards), OUT_OF_STOCK (when the reward has a stock). " +
        "Fulfilment as for POST /api/rewards/redeem: 409 SHIPPING_ADDRESS_REQUIRED for a physical reward without a shipping address, 409 VOUCHER_POOL_EMPTY for a voucher reward whose pool is empty. " +
        "An unknown or inactive reward is 404.",
      tags: ["Rewards"],
      auth: "bearer",
      body: claimBody,
      rateLimit: "write",
      response: claimResult,
      errors: [
        fulfilmentErrors.SHIPPING_ADDRESS_REQUIRED,
        fulfilmentErrors.VOUCHER_POOL_EMPTY,
        sharedErrors.NOT_FOUND,
        rewardsErrors.REWARD_NOT_CLAIMABLE,
        rewardsErrors.ALREADY_CLAIMED,
        rewardsErrors.MILESTONE_NOT_REACHED,
        rewardsErrors.OUT_OF_STOCK,
      ],
    },
    ({ user, body }) => claim(db, user.id, body.rewardId),
  ),
});
