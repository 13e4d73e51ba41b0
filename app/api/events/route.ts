import { db } from "@/lib/db/client";
import { eventsPage, eventsQuery } from "@/lib/features/games/schemas";
import { listEvents } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My events",
      description:
        "Games of the teams the caller follows or has joined (live teams only), as events: league, start, status, venue, both teams, score, whether the players can be rated (`ratable`) and the caller's own rating (`myRating`). " +
        "Three lists (`status`): `upcoming` (default; scheduled, live or postponed games, soonest first), `finished` (final games, most recent first), `all` (every game including canceled ones, chronological). " +
        "Keyset pages of `limit` (1..50, default 20); pass `nextCursor` back as `cursor` with the same `status` (a cursor of another list is 400).",
      tags: ["Events"],
      auth: "bearer",
      query: eventsQuery,
      response: eventsPage,
    },
    ({ user, query }) => listEvents(db, user.id, query),
  ),
});
