import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adminSettingResponse, settingBody, settingParams } from "@/lib/features/config/schemas";
import { putSetting } from "@/lib/features/config/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Set a config value (staff)",
      description:
        "Sets a minimum app version (`minVersion.ios`, `minVersion.android`, `minVersion.web`: `1.4.0`) or a legal link (`legal.termsUrl`, `legal.privacyUrl`, `legal.communityGuidelinesUrl`: an http(s) URL), shown in GET /api/v1/config within CONFIG_CACHE_TTL_MS. Audited.",
      tags: ["Admin"],
      auth: "admin",
      params: settingParams,
      body: settingBody,
      rateLimit: "write",
      response: adminSettingResponse,
    },
    ({ user, params, body, requestId }) => putSetting(db, params.key, body.value, apiActor(user, requestId)),
  ),
});
