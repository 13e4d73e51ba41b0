import { defineErrors } from "../http/errors";

// Error codes of moderation (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/http/errors.ts).
export const errors = defineErrors({
  CANNOT_REPORT_OWN: { status: 400, description: "The caller wrote the post or comment they tried to report." },
  ALREADY_REPORTED: { status: 409, description: "The caller already reported this post or comment (one report per user and target)." },
});
