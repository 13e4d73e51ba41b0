import { defineErrors } from "../../kernel/errors";

// Error codes of wallets (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  INSUFFICIENT_FUNDS: { status: 409, description: "The caller's wallet balance is lower than the amount to pay; nothing was charged." },
  BALANCE_LIMIT: {
    status: 409,
    description:
      "A credit this request makes would take a wallet (the caller's, a seller's, the adjusted user's) past the wallet ceiling of 10^15 minor units; a refund of held or paid funds only past 2^53 - 1. Nothing changed.",
  },
  ADJUSTMENT_OVER_LIMIT: {
    status: 403,
    description: "The adjustment is larger than the staff member's role may make in one action (lib/auth/roles.ts: admins have no limit); nothing changed.",
  },
  WALLET_FROZEN: {
    status: 409,
    description:
      "The caller's wallet owes coins (a top-up was refunded or disputed after the coins were spent): listing, bidding, offering, buying and accepting offers wait until later credits (a top-up, a sale, a refund) settle the debt (GET /api/v1/wallet shows it).",
  },
});
