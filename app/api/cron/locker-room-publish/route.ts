import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { publishResult } from "@/lib/features/lockerroom/schemas";
import { publishDuePosts } from "@/lib/features/lockerroom/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Announce published scheduled posts (Vercel Cron)",
      description:
        "Called by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "For each scheduled post whose time came: POST_PUBLISHED to its author and, when posted as a team, TEAM_POST to the team's followers with notifyTeams on. " +
        "Each post is claimed (announced_at) in the statement that selects it, in the transaction that writes its notifications: running it again, or concurrently, announces nothing twice. " +
        "Visibility never waits for this job: the feed shows a scheduled post from its publish time on.",
      tags: ["Admin"],
      auth: "cron",
      response: publishResult,
    },
    () => publishDuePosts(db),
  ),
});
