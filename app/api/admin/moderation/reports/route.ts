import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { targetReportsPage, targetReportsQuery } from "@/lib/features/moderation/schemas";
import { targetReports } from "@/lib/features/moderation/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Reports of a post or comment (staff)",
      description:
        "Every report of one target, open and resolved (`resolvedAt`, `resolvedBy`, `resolution` hidden or dismissed), newest first. Give exactly one of `postId` and `commentId` (400 otherwise). Keyset: `limit` 1..100 (default 50), `nextCursor` back as `cursor`.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      query: targetReportsQuery,
      response: targetReportsPage,
    },
    ({ query }) => targetReports(db, query),
  ),
});
