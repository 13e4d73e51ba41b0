import { db } from "@/lib/db/client";
import { errors as usersErrors } from "@/lib/core/users/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { settings, settingsPatch } from "@/lib/core/users/schemas";
import { getSettings, updateSettings } from "@/lib/core/users/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route({ summary: "Read settings", tags: ["Users"], auth: "bearer", response: settings }, ({ user }) => getSettings(db, user.id)),
  PATCH: route(
    {
      summary: "Update settings",
      description:
        "Only the fields sent change. privateProfile sets the user's private flag: a private profile turns new follows into follow requests (its followers stay); false accepts every pending request (GET /api/v1/me/follow-requests) in the same transaction. " +
        "A write that sets notifyTeams, notifyMilestones or notifyCommunity to true awards the `notifications_enabled` Rep in the same transaction, once ever: it shows in GET /api/v1/engage/rep/ledger, and a later claim through POST /api/v1/engage/rep/earn is 409 ALREADY_EARNED. " +
        "timezone (an IANA name, or null for UTC; unknown: 400 VALIDATION_ERROR) changes at most once per 24 hours: another change within 24 hours of the last is 409 TIMEZONE_CHANGE_TOO_SOON (its message and details name when it may change next, as does timezoneChangeableAt); sending the current value is no change. Concurrent changes: the first to take the account's lock wins, the other is 409.",
      tags: ["Users"],
      auth: "bearer",
      body: settingsPatch,
      rateLimit: "write",
      response: settings,
      errors: [usersErrors.TIMEZONE_CHANGE_TOO_SOON],
    },
    ({ user, body }) => updateSettings(db, user.id, body),
  ),
});
