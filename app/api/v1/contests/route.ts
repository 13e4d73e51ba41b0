import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contestPage, contestsQuery } from "@/lib/features/contests/schemas";
import { listContests } from "@/lib/features/contests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Contests",
      description:
        "Contests with owned cards, newest first (keyset), optionally by `status`: open (lineups editable until the lock), live (locked, not settled) or settled. Each shows its covered games, the lineup size and slots (position rules), the per-rarity cap, the captain's multiplier, the lock in force (the earlier of its set lock and the covered games' kick-offs), the Rep prize table by rank and how many lineups it has. The caller's lineup is on GET /api/v1/contests/{contestId}.",
      tags: ["Contests"],
      auth: "optional",
      query: contestsQuery,
      response: contestPage,
    },
    ({ query }) => listContests(db, query),
  ),
});
