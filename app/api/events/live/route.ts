import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { livePage, liveQuery } from "@/lib/features/live/schemas";
import { listLiveGames } from "@/lib/features/live/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Games in progress",
      description:
        "Games whose status is `live`, soonest kick-off first: those of the caller's teams (followed or joined, live teams only; `scope=mine`, the default) or every one (`scope=all`). " +
        "Each with its league, teams, score, and the newest timeline event's `minute` and time. Keyset pages of `limit` (1..50, default 20); pass `nextCursor` back as `cursor`.",
      tags: ["Events"],
      auth: "bearer",
      query: liveQuery,
      response: livePage,
    },
    ({ user, query }) => listLiveGames(db, user.id, query),
  ),
});
