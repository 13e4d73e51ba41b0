import { defineErrors } from "../../../kernel/errors";

// Error codes of leaderboards (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  SEASON_ARCHIVED: {
    status: 404,
    description: "Boards are kept for this season and the one before; an older season's top fans are in GET /api/leaderboard/winners.",
  },
});
