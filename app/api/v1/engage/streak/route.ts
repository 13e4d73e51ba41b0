import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { FREEZES_HELD_MAX, streak } from "@/lib/features/progress/schemas";
import { getStreak } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My daily streak",
      description:
        "The caller's daily streak: consecutive UTC days with a completed daily quest (the daily quiz and the arena check-in count UTC days; so does the streak), the longest, " +
        `streak freezes held (at most ${FREEZES_HELD_MAX}) and their price, whether it is at risk today (above 0 and no daily quest completed yet this UTC day), and when today's UTC day ends, as an instant and in the caller's time zone (PATCH /api/user/settings timezone; UTC when unset). ` +
        "A missed UTC day is saved by one held freeze acquired before that day began (a freeze bought today cannot save yesterday): the freeze is used when the streak next moves, by the streaks cron, or by this read, whichever comes first; a saved day keeps the streak without adding to it.",
      tags: ["Quests"],
      auth: "bearer",
      response: streak,
    },
    ({ user }) => getStreak(db, user.id),
  ),
});
