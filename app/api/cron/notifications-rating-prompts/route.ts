import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { RATING_WINDOW_HOURS, producerResult } from "@/lib/core/notifications/schemas";
import { runRatingPrompts } from "@/lib/features/games/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Rating prompts (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Writes a RATING prompt (cause \`rating:<gameId>\`) for every ratable game (final, with a lineup or one that can be seeded) that started within the last ${RATING_WINDOW_HOURS} h to each user who follows either team, has \`notifyTeams\` on and has not rated it. ` +
        "One INSERT … SELECT … ON CONFLICT DO NOTHING on the cause key (unique per user): running it again, or concurrently, writes nothing twice. Answers how many notifications this run wrote.",
      tags: ["Admin"],
      auth: "cron",
      response: producerResult,
    },
    () => runRatingPrompts(db),
  ),
});
