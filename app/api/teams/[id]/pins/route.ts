import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { teamPins } from "@/lib/features/lockerroom/pins";
import { pinList } from "@/lib/features/lockerroom/schemas";
import { teamIdParams } from "@/lib/core/teams/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A team's pinned posts",
      description:
        "`{id}` is a team id or slug. The posts the team's staff pinned on its profile (posts posted as the team; at most 3, newest pin first), each as the feed serializes it plus `pinnedAt`. " +
        "Only the pinned posts the caller may see, decided in the statement that reads them (a private post only to the team's fans). 404 for an unknown or archived team.",
      tags: ["Teams"],
      auth: "optional",
      params: teamIdParams,
      response: pinList,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => teamPins(db, user, params.id),
  ),
});
