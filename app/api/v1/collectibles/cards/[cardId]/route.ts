import { readMayLag } from "@/lib/db/replica";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cardMarket, cardParams } from "@/lib/core/market-data/schemas";
import { getCardMarket } from "@/lib/core/market-data/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A card and its market",
      description:
        "The catalog card with its market now: supply (the edition size), copies drawn, fans holding a copy, the floor (the cheapest copy buyable now: an active fixed-price listing whose seller still owns the item, not minted or being minted), the last sale (marked when staff reversed it) and the last 24 hours' volume and number of sales (reversed sales left out). " +
        "Signed out, the answer may be up to a second old (one answer per card shared among anonymous callers); `holders` is refreshed every 30 seconds at most. Unknown card: 404.",
      tags: ["Collectibles"],
      auth: "optional",
      anonymousCache: true,
      params: cardParams,
      response: cardMarket,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, user }) => readMayLag(user?.id ?? null, (db) => getCardMarket(db, params.cardId)),
  ),
});
