import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adminConfig } from "@/lib/features/config/schemas";
import { adminConfig as readAdminConfig } from "@/lib/features/config/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Remote config as stored (staff)",
      description:
        "Every feature flag with its rollout, every kill switch (paused, for everyone or for listed users) and every setting (its value, or the default while unset), read from the database (not the servers' cache: a change reaches GET /api/v1/config within `refreshSeconds`).",
      tags: ["Admin"],
      auth: "admin",
      response: adminConfig,
    },
    () => readAdminConfig(db),
  ),
});
