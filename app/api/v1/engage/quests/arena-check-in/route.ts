import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkInBody, checkInResult } from "@/lib/features/quests/schemas";
import { arenaCheckIn } from "@/lib/features/quests/service";
import { errors as questsErrors } from "@/lib/features/quests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Arena check-in",
      description: [
        "Checks the caller in at a game of a team they follow or joined (else 409 NOT_FOLLOWING_TEAM), once per team and UTC day (201): a second one is 409 ALREADY_CHECKED_IN. Unknown or archived team: 404.",
        "**The game.** Check-in opens 3 h before a game's start and closes 3 h after it (CHECK_IN_OPENS_MINUTES_BEFORE, CHECK_IN_CLOSES_MINUTES_AFTER); postponed and canceled games do not count. Without `gameId` the team's game whose window is open now is used; a team with no game today and none open now is 409 NO_GAME_TODAY, a game today outside its window 409 CHECK_IN_CLOSED. `gameId`, when given, must be a game of that team today (UTC) or open now, else 409 CHECK_IN_GAME_MISMATCH. The answer's `gameId` names the game.",
        "**The place.** When the game's venue has coordinates, the body must carry the device's `location` (400 VALIDATION_ERROR naming `body.location` without it): a reported `accuracy` coarser than 250 m is 409 LOCATION_TOO_COARSE, a position farther than 1,000 m from the venue 409 NOT_AT_VENUE (CHECK_IN_MAX_ACCURACY_METERS, CHECK_IN_RADIUS_METERS). A `mocked: true` location is refused anywhere (409 LOCATION_MOCKED). The position is checked, never stored.",
        "**The award.** Credits the server's arena_check_in Rep (25 club Rep), once, and completes the team's check-in quest for today when the caller is eligible for it, without a second award: the check-in's Rep is that quest's reward (the quest records repAwarded 0). Arena check-in quest steps the caller now meets are marked done.",
      ].join("\n\n"),
      tags: ["Quests"],
      auth: "bearer",
      body: checkInBody,
      rateLimit: "write",
      status: 201,
      response: checkInResult,
      errors: [
        sharedErrors.NOT_FOUND,
        questsErrors.ALREADY_CHECKED_IN,
        questsErrors.CHECK_IN_GAME_MISMATCH,
        questsErrors.NOT_FOLLOWING_TEAM,
        questsErrors.NO_GAME_TODAY,
        questsErrors.CHECK_IN_CLOSED,
        questsErrors.LOCATION_MOCKED,
        questsErrors.LOCATION_TOO_COARSE,
        questsErrors.NOT_AT_VENUE,
      ],
    },
    ({ user, body }) => arenaCheckIn(db, user.id, body),
  ),
});
