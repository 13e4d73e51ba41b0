import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getRoster } from "@/lib/core/teams/service";
import { rosterResult, teamIdParams } from "@/lib/core/teams/schemas";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Team roster",
      description:
        "The bare `{ players }`: active players only, numeric jerseys ascending, then other jerseys, then name. `photo` is absent when the player has no art; `availability` is absent when the player is available. `{id}` is a team id or slug; missing or archived teams answer 404.",
      tags: ["Teams"],
      auth: "public",
      params: teamIdParams,
      envelope: false,
      response: rosterResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getRoster(db, params.id),
  ),
});
