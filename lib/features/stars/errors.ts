import { defineErrors } from "../../kernel/errors";

// Error codes of starred teams (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  STARRED_TEAMS_LIMIT: { status: 409, description: "Starring one more club would pass the 50-club cap." },
});
