import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { settings, settingsPatch } from "@/lib/users/schemas";
import { getSettings, updateSettings } from "@/lib/users/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route({ summary: "Read settings", tags: ["Users"], auth: "bearer", response: settings }, ({ user }) => getSettings(db, user.id)),
  PATCH: route(
    {
      summary: "Update settings",
      description:
        "Only the fields sent change. privateProfile sets the user's private flag: a private profile turns new follows into follow requests (its followers stay); false accepts every pending request (GET /api/v1/me/follow-requests) in the same transaction. " +
        "A write that sets notifyTeams, notifyMilestones or notifyCommunity to true awards the `notifications_enabled` Rep in the same transaction, once ever: it shows in GET /api/v1/engage/rep/ledger, and a later claim through POST /api/v1/engage/rep/earn is 409 ALREADY_EARNED.",
      tags: ["Users"],
      auth: "bearer",
      body: settingsPatch,
      rateLimit: "write",
      response: settings,
    },
    ({ user, body }) => updateSettings(db, user.id, body),
  ),
});
