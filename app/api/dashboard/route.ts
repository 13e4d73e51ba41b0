import { db } from "@/lib/db/client";
import { dashboard } from "@/lib/operations/dashboard/schemas";
import { dashboardOf } from "@/lib/operations/dashboard/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Home screen",
      description:
        "Everything the app's home screen shows in one call: Rep (spendable balance, earned and spent, earned per source), the daily streak, today's quests with progress (as in GET /api/v1/engage/quests) and the next games of teams the caller follows or joined (as in GET /api/events). A few statements run side by side, however many teams or quests.",
      tags: ["Dashboard"],
      auth: "bearer",
      response: dashboard,
    },
    ({ user }) => dashboardOf(db, user.id),
  ),
});
