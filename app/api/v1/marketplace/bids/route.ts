import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { myAuctionPage, myBidsQuery } from "@/lib/features/marketplace/schemas";
import { listMyBids } from "@/lib/features/marketplace/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My bids, per auction",
      description:
        "The auctions the caller bid on, one entry each, the one they bid on last first: `state` (leading or outbid while the auction runs, won or lost once it closed), " +
        "how many bids they made, the most their bids stand at, their own maximum, and the listing. `state=` filters. Keyset: `limit` 1..100 (default 20).",
      tags: ["Marketplace"],
      auth: "bearer",
      query: myBidsQuery,
      response: myAuctionPage,
      errors: [],
    },
    ({ user, query }) => listMyBids(db, user.id, query),
  ),
});
