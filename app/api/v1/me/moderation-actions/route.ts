import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { actionsPage, actionsQuery } from "@/lib/features/moderation/schemas";
import { myModerationActions } from "@/lib/features/moderation/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Moderation actions against me",
      description:
        "The actions staff (or a team's staff) took against the caller, newest first: `kind` (posting_suspension, trading_restriction, full_suspension, content_hidden), the `reason`, when it ends (`endsAt`; null for hidden content), whether it was lifted, the posts and comments it still hides, until when it can be appealed (30 days) and the appeal's status. Open to a fully suspended caller. Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Moderation"],
      auth: "bearer",
      allowSuspended: true,
      query: actionsQuery,
      response: actionsPage,
    },
    ({ user, query }) => myModerationActions(db, user.id, query),
  ),
});
