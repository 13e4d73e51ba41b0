import { db } from "@/lib/db/client";
import { dashboardStats } from "@/lib/operations/dashboard/schemas";
import { statsOf } from "@/lib/operations/dashboard/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Engagement stats",
      description:
        "Rep (as in /api/dashboard/balance), the daily streak and counts of what the caller did: quests completed (ever and today), arena check-ins, games rated, rewards claimed or redeemed.",
      tags: ["Dashboard"],
      auth: "bearer",
      response: dashboardStats,
    },
    ({ user }) => statsOf(db, user.id),
  ),
});
