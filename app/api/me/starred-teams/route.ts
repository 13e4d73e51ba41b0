import { db, pool } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { mergeBody, mergeResult, starredTeamsList } from "@/lib/features/stars/schemas";
import { listStars } from "@/lib/features/stars/queries";
import { mergeStars } from "@/lib/features/stars/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route({ summary: "Starred teams (HQ bookmarks)", tags: ["Stars"], auth: "bearer", response: starredTeamsList }, async ({ user }) => ({
    teams: await listStars(pool, user.id),
  })),
  POST: route(
    {
      summary: "Merge starred teams",
      description:
        "Additive merge, not a replace: existing ids refresh only the snapshot keys sent (null clears), new ids are starred until the 50-club cap. Items that fail validation are rejected with reason `invalid`; new ids past the cap are counted in `skipped` and rejected with reason `over_cap`. Up to 200 items.",
      tags: ["Stars"],
      auth: "bearer",
      body: mergeBody,
      bodyLimit: 64 * 1024,
      rateLimit: "write",
      envelope: false,
      response: mergeResult,
    },
    ({ user, body }) => mergeStars(db, user.id, body.teams),
  ),
});
