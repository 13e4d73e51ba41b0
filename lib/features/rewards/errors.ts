import { defineErrors } from "../../kernel/errors";

// Error codes of rewards (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts). Every refusal of a redemption or a
// claim is 409: the request was well formed but the account's state (balance, stock, limits, milestones) refuses it.
export const errors = defineErrors({
  INSUFFICIENT_REP: { status: 409, description: "The caller's spendable Rep balance is lower than the reward's cost." },
  OUT_OF_STOCK: { status: 409, description: "The reward has no stock left." },
  REWARD_LIMIT_REACHED: { status: 409, description: "The caller already redeemed this reward as many times as its per-user limit allows." },
  REWARD_NOT_REDEEMABLE: { status: 409, description: "A milestone reward is claimed free (POST /api/rewards/claim), never redeemed with Rep." },
  REWARD_NOT_CLAIMABLE: { status: 409, description: "A redeem reward is bought with Rep (POST /api/rewards/redeem), never claimed free." },
  MILESTONE_NOT_REACHED: { status: 409, description: "The caller has not reached the reward's milestone yet." },
  ALREADY_CLAIMED: { status: 409, description: "The caller already claimed this milestone reward; each is claimed once." },
});

// Fulfilment (fulfilment.ts).
export const fulfilmentErrors = defineErrors({
  SHIPPING_ADDRESS_REQUIRED: {
    status: 409,
    description: "A physical reward ships to the caller's shipping address: set it first with PUT /api/v1/me/shipping-address.",
  },
  VOUCHER_POOL_EMPTY: { status: 409, description: "The reward's pool of voucher codes is empty right now; nothing was spent." },
  FULFILMENT_TRANSITION_INVALID: { status: 409, description: "The claim's fulfilment cannot move to that status from its current one." },
});
