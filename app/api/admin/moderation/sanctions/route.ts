import { apiActor } from "@/lib/core/audit/service";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cursorQuery, intQuery, uuidString } from "@/lib/kernel/schemas";
import { sanctionBody, staffModerationAction } from "@/lib/features/moderation/schemas";
import { imposeSanction, userModerationActions } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

const query = z.strictObject({ userId: uuidString("Whose actions."), cursor: cursorQuery, limit: intQuery(1, 100, 20) });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A user's moderation actions (staff)",
      description: "Every action against the user (sanctions and hidden content), newest first, with who acted and who lifted or reviewed it. Keyset.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      query,
      response: z.object({ actions: z.array(staffModerationAction), nextCursor: z.string().optional() }),
    },
    ({ query }) => userModerationActions(db, query.userId, query),
  ),
  POST: route(
    {
      summary: "Impose a sanction (staff)",
      description:
        "Imposes `kind` posting (posts and comments refused: 403 POSTING_SUSPENDED), trading (listing, bidding, offering, buying, checkout, accepting offers refused: 403 TRADING_RESTRICTED) or full (every signed-in call refused but reading one's moderation actions and appealing: 403 ACCOUNT_SUSPENDED) for `hours` from now, with a `reason` the user sees; optionally hiding `hidePostIds` (the user's posts) under the same action, which a granted appeal brings back. Unknown user: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      body: sanctionBody,
      rateLimit: "write",
      status: 201,
      response: z.object({ action: staffModerationAction }),
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, body, requestId }) => imposeSanction(db, body, apiActor(user, requestId)),
  ),
});
