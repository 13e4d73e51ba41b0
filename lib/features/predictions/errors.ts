import { defineErrors } from "../../kernel/errors";

// Error codes of predictions and private leagues (thrown by its services, listed on its routes; the shared codes are
// sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  PREDICTION_LOCKED: {
    status: 409,
    description:
      "Predictions of this game are locked: it has kicked off (its startsAt has passed on the server's clock) or is no longer scheduled (live, final, postponed, canceled).",
  },
  PREDICTIONS_NOT_LOCKED: {
    status: 409,
    description: "The crowd split of a game is shown only once its predictions are locked (kick-off, or the game no longer scheduled).",
  },
  LEAGUE_FULL: { status: 409, description: "The private league has reached its member cap." },
  LEAGUE_LIMIT: { status: 409, description: "The caller is already in (or owns) as many private leagues as a fan may." },
  INVALID_LEAGUE_CODE: { status: 404, description: "No private league has this join code (it may have been rotated by its owner)." },
  NOT_LEAGUE_OWNER: { status: 403, description: "Only the league's owner may do this (rotate the code, remove another member)." },
  OWNER_CANNOT_LEAVE: {
    status: 409,
    description: "The owner cannot leave a league that has other members (remove them first); the owner leaving as the last member deletes the league.",
  },
});
