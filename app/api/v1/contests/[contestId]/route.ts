import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contestDetail, contestParams } from "@/lib/features/contests/schemas";
import { getContest } from "@/lib/features/contests/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A contest, with my lineup",
      description:
        "The contest and, with a session, the caller's lineup (its cards in their slots, the captain, and once settled the score, the captain's part, the rank and the Rep paid); without a session or a lineup `lineup` is null. Unknown: 404.",
      tags: ["Contests"],
      auth: "optional",
      params: contestParams,
      response: contestDetail,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getContest(db, params.contestId, user?.id ?? null),
  ),
});
