// Error codes of wallets (merged into the one catalogue in lib/http/errors.ts).
export const errors = {
  INSUFFICIENT_FUNDS: { status: 409, description: "The caller's wallet balance is lower than the amount to pay; nothing was charged." },
} as const;
