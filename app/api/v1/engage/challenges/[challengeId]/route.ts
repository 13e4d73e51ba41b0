import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { challengeDetail, challengeParams } from "@/lib/features/challenges/schemas";
import { getChallenge } from "@/lib/features/challenges/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A collection challenge, with my progress",
      description:
        "The challenge and, with a session, the caller's progress: for each required card their copies (up to 50 per card) and whether each may go in the entry (`eligible`: in it already, or not listed, not minted and not locked in another challenge's entry, `lockedBy` naming that one), their entry (its items, `completedAt`), whether it is complete and the reward received (rank, serial, the copy's id, Rep). Without a session `progress` is null. Unknown: 404.",
      tags: ["Challenges"],
      auth: "optional",
      params: challengeParams,
      response: challengeDetail,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getChallenge(db, user?.id ?? null, params.challengeId),
  ),
});
