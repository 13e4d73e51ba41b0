import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { badgeList } from "@/lib/features/progress/schemas";
import { listBadges } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Badges",
      description:
        "The badge catalogue (active badges, by name) and the rule of each: rep_kind (a Rep credit of one of earnKinds that was not reversed; repeatable ones once per credit), streak (a longest daily streak of threshold days), tier (tierId reached in a season). " +
        "Grants are backfilled for everyone by the badges cron and for a fan when their badges are read; a badge with revokeOnReversal goes when staff reverse the credit it was granted for.",
      tags: ["Quests"],
      auth: "public",
      response: badgeList,
    },
    () => listBadges(db),
  ),
});
