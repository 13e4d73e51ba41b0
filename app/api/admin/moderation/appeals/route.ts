import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cursorQuery, intQuery } from "@/lib/kernel/schemas";
import { staffAppeal } from "@/lib/features/moderation/schemas";
import { appealQueue } from "@/lib/features/moderation/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Pending appeals (staff)",
      description: "Appeals awaiting a decision, oldest first, each with its action. Keyset: `limit` 1..50 (default 20).",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      query: z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) }),
      response: z.object({ appeals: z.array(staffAppeal), nextCursor: z.string().optional() }),
    },
    ({ query }) => appealQueue(db, query),
  ),
});
