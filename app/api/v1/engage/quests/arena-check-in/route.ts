import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkInBody, checkInResult } from "@/lib/quests/schemas";
import { arenaCheckIn } from "@/lib/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Arena check-in",
      description:
        "Checks the caller in for a team, once per team and UTC day (201): a second one is 409 ALREADY_CHECKED_IN. Credits the server's arena_check_in Rep (25 club Rep), once. Unknown or archived team: 404. `gameId`, when given, must be a game of that team starting on today's UTC day, else 409 CHECK_IN_GAME_MISMATCH. It also completes the team's check-in quest for today when the caller is eligible for it, without a second award: the check-in's Rep is that quest's reward (the quest records repAwarded 0). Arena check-in quest steps the caller now meets are marked done.",
      tags: ["Quests"],
      auth: "bearer",
      body: checkInBody,
      rateLimit: "write",
      status: 201,
      response: checkInResult,
      errors: ["NOT_FOUND", "ALREADY_CHECKED_IN", "CHECK_IN_GAME_MISMATCH"],
    },
    ({ user, body }) => arenaCheckIn(db, user.id, body),
  ),
});
