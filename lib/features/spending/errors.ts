import { defineErrors } from "../../kernel/errors";

// Error codes of spending limits and pack sales by region (thrown by lib/features/spending, listed on the routes that call it).
export const errors = defineErrors({
  SPENDING_LIMIT_REACHED: {
    status: 409,
    description:
      "The purchase would take the caller past one of their spending limits (details: which limit, what is left, when it resets); nothing was charged. GET /api/v1/me/spending-limits shows them.",
  },
  REGION_RESTRICTED: {
    status: 403,
    description: "Packs are not sold in the caller's country (the request's or the one in their settings); nothing was charged.",
  },
});
