import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { challengePage, challengesQuery } from "@/lib/features/challenges/schemas";
import { listChallenges } from "@/lib/features/challenges/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Collection challenges",
      description:
        "Challenges to complete a set of cards before a deadline, newest first (keyset), optionally by `status` (upcoming, open, ended): the cards and copies asked, the reward (copies of a card, serials in a committed random order, and/or Rep) with the copies left, and the fairness commitment: the SHA-256 of the seed ordering the reward serials from the start, the seed itself once the challenge has ended. The caller's progress is on GET /api/v1/engage/challenges/{challengeId}.",
      tags: ["Challenges"],
      auth: "optional",
      query: challengesQuery,
      response: challengePage,
    },
    ({ query }) => listChallenges(db, query),
  ),
});
