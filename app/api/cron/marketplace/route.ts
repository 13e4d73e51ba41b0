import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { z } from "zod";
import { runMarketplaceCron } from "@/lib/features/marketplace/service";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Settle ended auctions and expire offers (cron)",
      description:
        "Settles every auction past its end (the top bid at or above the reserve buys the item with its held funds, the seller is paid minus the fee; otherwise the funds go back and the listing expires; a seller whose wallet cannot take the price, past the wallet ceiling, does not sell: the funds go back and the listing is cancelled), expires open offers and trades past their time, refunding their held coins, and deletes idempotency keys past their expiry. Each auction and offer in its own transaction taken with SKIP LOCKED: running it twice, or twice at once, settles nothing twice.",
      tags: ["Cron"],
      auth: "cron",
      response: z.object({
        auctionsSold: z.number().int(),
        auctionsExpired: z.number().int(),
        offersExpired: z.number().int(),
        tradesExpired: z.number().int(),
        idempotencyKeysDeleted: z.number().int(),
      }),
      errors: [walletsErrors.BALANCE_LIMIT],
    },
    () => runMarketplaceCron(db),
  ),
});
