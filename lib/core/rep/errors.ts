import { defineErrors } from "../../kernel/errors";

// Error codes of the Rep ledger (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  EARN_KIND_SERVER_AWARDED: { status: 403, description: "This kind of Rep is awarded by the server, never through the earn route." },
  ALREADY_EARNED: { status: 409, description: "This Rep was already granted (once-only, once per day or once per target)." },
  EARN_CONDITION_NOT_MET: {
    status: 409,
    description:
      "The server does not see what this Rep is for yet (e.g. profile_completed with an incomplete profile, notifications_enabled with every notification setting off).",
  },
});
