import { defineErrors } from "../http/errors";

// Error codes of starred teams (merged into the one catalogue in lib/http/errors.ts).
export const errors = defineErrors({
  STARRED_TEAMS_LIMIT: { status: 409, description: "Starring one more club would pass the 50-club cap." },
});
