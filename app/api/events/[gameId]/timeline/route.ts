import { db } from "@/lib/db/client";
import { gameIdParams } from "@/lib/features/games/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { timelinePage, timelineQuery } from "@/lib/features/live/schemas";
import { gameTimeline } from "@/lib/features/live/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A game's live timeline",
      description:
        "The provider's events of the game in its order (`seq`): periods, goals, cards, substitutions, status and score changes, and the amendments. " +
        "An amendment is an event of its own (`type: amendment`, `amends`: the event it corrects); the corrected event keeps its fields as received and is marked: `amendedBy` (the newest amendment), `voided` (a disallowed goal), `corrected` (its fields after the amendments). " +
        "Stat lines are not in the timeline (GET …/stats). Keyset pages of `limit` (1..100, default 50), oldest first; pass `nextCursor` back as `cursor`. Public.",
      tags: ["Events"],
      auth: "optional",
      params: gameIdParams,
      query: timelineQuery,
      response: timelinePage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, query }) => gameTimeline(db, params.gameId, query),
  ),
});
