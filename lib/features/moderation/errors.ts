import { defineErrors } from "../../kernel/errors";

// Error codes of moderation (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  CANNOT_REPORT_OWN: { status: 400, description: "The caller tried to report themselves or their own post, comment, listing or binder." },
  ALREADY_REPORTED: {
    status: 409,
    description: "The caller already reported this (posts and comments: once per user and target; users, listings and binders: one open report at a time).",
  },
  TRADING_RESTRICTED: {
    status: 403,
    description:
      "Staff restricted the caller's trading (or suspended the account) until the time in details: no listing, bidding, offering, buying or accepting offers.",
  },
  ALREADY_APPEALED: { status: 409, description: "This action was already appealed (one appeal per action)." },
  APPEAL_WINDOW_CLOSED: { status: 422, description: "The action is more than 30 days old: it can no longer be appealed." },
  APPEAL_DECIDED: { status: 409, description: "Staff already decided this appeal." },
  ACTION_LIFTED: { status: 409, description: "The action was already lifted." },
});
