import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adminKillSwitchResponse, featureParams, killSwitchBody } from "@/lib/features/config/schemas";
import { putKillSwitch } from "@/lib/features/config/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Pause or resume a feature (staff)",
      description:
        "A kill switch: while `paused`, the feature's writes answer 409 FEATURE_DISABLED (reads stay available) and GET /api/v1/config shows it disabled, with `message` when given. With `userIds` it is paused for those users only (a test cohort, a staged pause); without, for everyone. Every server applies it within CONFIG_CACHE_TTL_MS. Audited.",
      tags: ["Admin"],
      auth: "admin",
      params: featureParams,
      body: killSwitchBody,
      rateLimit: "write",
      response: adminKillSwitchResponse,
    },
    ({ user, params, body, requestId }) => putKillSwitch(db, params.feature, body, apiActor(user, requestId)),
  ),
});
