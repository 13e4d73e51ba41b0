import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { notificationPreferences, notificationPreferencesPut } from "@/lib/core/push/schemas";
import { getPreferences, putPreferences } from "@/lib/core/push/service";

const MAPPING =
  "The account settings (GET and PATCH /api/user/settings) are the in-app switches of their types: notifyTeams of GAME_ALERT, RATING and TEAM_POST; notifyMilestones of MILESTONE; notifyCommunity of REPLY and REACTION (each type's `setting`). " +
  "A setting is on while any of its types is in-app; turning a setting off turns its types off, turning it on turns them all on. POST_PUBLISHED, WISHLIST_LISTED, OUTBID, OFFER_UPDATE, TRADE_UPDATE and PRICE_ALERT have only their own preference.";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My notification preferences",
      description:
        "Every notification type with `inApp` (the inbox gets it) and `push` (it is pushed to the caller's devices), and the quiet hours (null: none). " +
        "In-app off means neither: the notification is not written at all. Push off keeps it in the inbox. " +
        MAPPING,
      tags: ["Notifications"],
      auth: "bearer",
      response: notificationPreferences,
    },
    ({ user }) => getPreferences(db, user.id),
  ),
  PUT: route(
    {
      summary: "Change my notification preferences",
      description:
        "Sets `inApp` and/or `push` of the listed types (others keep theirs) and the quiet hours (`null` removes them; left out keeps them), in one transaction; answers every preference. " +
        "Quiet hours hold pushes back (not the inbox) from `start` to `end` in `timeZone` (an end before the start spans midnight): due pushes wait until the end, and one older than PUSH_STALE_HOURS (24 h) when it could go is dropped. " +
        MAPPING,
      tags: ["Notifications"],
      auth: "bearer",
      body: notificationPreferencesPut,
      rateLimit: "write",
      response: notificationPreferences,
    },
    ({ user, body }) => putPreferences(db, user.id, body),
  ),
});
