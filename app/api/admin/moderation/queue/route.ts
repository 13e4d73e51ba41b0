import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { queuePage, queueQuery } from "@/lib/features/moderation/schemas";
import { moderationQueue } from "@/lib/features/moderation/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Moderation queue (staff)",
      description:
        "Posts and comments with open reports, the one with the oldest open report first (keyset: pass `nextCursor` back as `cursor`; `limit` 1..50, default 20). Each item: the target, a snapshot of it as it is now (content, media count, author, hiddenAt, deletedAt), its open report count, open reports per reason, the first and last open report times, and its latest open reports with their notes. Hiding a target or dismissing its reports takes it out of the queue; a new report puts it back.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      query: queueQuery,
      response: queuePage,
    },
    ({ query }) => moderationQueue(db, query),
  ),
});
