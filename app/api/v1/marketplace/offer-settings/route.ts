import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { MINIMUMS_MAX, offerSettingsBody, offerSettingsResponse, REFUSED_MAX } from "@/lib/features/marketplace/trade-schemas";
import { getOfferSettings, putOfferSettings } from "@/lib/features/marketplace/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My offer settings",
      description:
        "The least offer the caller takes for any copy of each card (`minimumOffers`), and the users whose offers and trade proposals the caller refuses (`refusedUserIds`; blocked users are refused anyway, either way round).",
      tags: ["Marketplace"],
      auth: "bearer",
      response: offerSettingsResponse,
    },
    ({ user }) => getOfferSettings(db, user.id),
  ),
  PUT: route(
    {
      summary: "Set my offer settings",
      description:
        `Replaces both lists: up to ${MINIMUMS_MAX} cards with the least offer taken for any copy (an offer below it on an item the caller owns: 409 OFFER_BELOW_MINIMUM), and up to ${REFUSED_MAX} users whose offers and trade proposals are refused (409 REFUSED_BY_USER). ` +
        "An unknown card or user, one listed twice, or the caller among the refused: 400 naming it. Bodies up to 64 KB. Answers the settings as GET does.",
      tags: ["Marketplace"],
      auth: "bearer",
      body: offerSettingsBody,
      // Full lists (500 user ids, 200 cards) pass the default 16 KB.
      bodyLimit: 64 * 1024,
      rateLimit: "write",
      response: offerSettingsResponse,
    },
    ({ user, body }) => putOfferSettings(db, user.id, body),
  ),
});
