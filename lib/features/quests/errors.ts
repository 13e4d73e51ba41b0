import { defineErrors } from "../../kernel/errors";

// Error codes of quests (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  QUEST_NOT_A_QUIZ: { status: 409, description: "The quest is not a quiz; only quiz quests start sessions." },
  QUIZ_ALREADY_ATTEMPTED: { status: 409, description: "The caller already started this quiz today (UTC); one attempt per quiz and day, forfeits included." },
  QUIZ_UNAVAILABLE: { status: 409, description: "The quiz has no active questions right now." },
  QUIZ_SESSION_ENDED: { status: 409, description: "The quiz session already ended (completed or forfeited)." },
  QUIZ_POSITION_MISMATCH: {
    status: 409,
    description: "The answer names a question position that is not the session's current question (already answered or timed out).",
  },
  ALREADY_CHECKED_IN: { status: 409, description: "The caller already checked in for this team today (UTC)." },
  CHECK_IN_GAME_MISMATCH: { status: 409, description: "The gameId is not a game of this team on today's UTC day." },
  NOT_FOLLOWING_TEAM: { status: 409, description: "Only a fan who follows or joined the team can check in for it." },
  NO_GAME_TODAY: { status: 409, description: "The team has no game today (UTC) and none whose check-in window is open now." },
  CHECK_IN_CLOSED: { status: 409, description: "The team's game today is outside its check-in window (by default 3 h before to 3 h after the start)." },
  LOCATION_MOCKED: { status: 409, description: "The device reported a mock (simulated) location." },
  LOCATION_TOO_COARSE: { status: 409, description: "The device's reported accuracy is coarser than the limit (by default 250 m)." },
  NOT_AT_VENUE: { status: 409, description: "The device's position is outside the venue's radius (by default 1,000 m)." },
  QUEST_STEP_CONDITION_NOT_MET: { status: 409, description: "The step is checked by the server and its condition is not met yet." },
});
