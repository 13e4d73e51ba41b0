import { defineErrors } from "../../kernel/errors";

// Error codes of the live match centre (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  LIVE_FEED_UNAVAILABLE: {
    status: 503,
    description: "The live events webhook is not configured on this server (LIVE_EVENTS_WEBHOOK_SECRET is unset in production).",
  },
});
