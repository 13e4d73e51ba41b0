import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contestCreateBody, contestResponse } from "@/lib/features/contests/schemas";
import { createContest } from "@/lib/features/contests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Create a contest (staff)",
      description:
        "A contest: `title`, the `gameIds` it covers (scheduled, not kicked off: 400 naming each other one), the lineup's `slots` (their number is the lineup size; each a position, several separated by `/`, or `*`), a per-rarity cap `rarityCap`, the `captainMultiplier` (default 2), the Rep `prizes` by rank and an optional `lockAt` (in the future, not after the earliest kick-off; default that kick-off). Audited in the same transaction. The console's /admin/contests creates them too.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      body: contestCreateBody,
      rateLimit: "write",
      status: 201,
      response: contestResponse,
    },
    ({ user, body, requestId }) => createContest(db, body, apiActor(user, requestId)),
  ),
});
