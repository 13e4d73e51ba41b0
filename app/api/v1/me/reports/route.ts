import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { myReportsPage, myReportsQuery } from "@/lib/features/moderation/schemas";
import { myReports } from "@/lib/features/moderation/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My reports",
      description:
        "What the caller reported (posts, comments, users, listings, binders), newest first, each with its status: `open` until staff review it, then `actioned` or `dismissed`. What staff did to the target, and why, is never shown. Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Moderation"],
      auth: "bearer",
      query: myReportsQuery,
      response: myReportsPage,
    },
    ({ user, query }) => myReports(db, user.id, query),
  ),
});
