import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { GAME_ALERT_WINDOW_HOURS, producerResult } from "@/lib/core/notifications/schemas";
import { runGameAlerts } from "@/lib/features/games/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Game alerts (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Writes a GAME_ALERT (cause \`game_alert:<gameId>\`) for every scheduled game starting within the next ${GAME_ALERT_WINDOW_HOURS} h to each user who follows either team and has \`notifyTeams\` on. ` +
        "One INSERT … SELECT … ON CONFLICT DO NOTHING on the cause key (unique per user): running it again, or concurrently, writes nothing twice. Answers how many notifications this run wrote.",
      tags: ["Admin"],
      auth: "cron",
      response: producerResult,
    },
    () => runGameAlerts(db),
  ),
});
