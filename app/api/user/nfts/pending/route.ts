import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listPendingNfts } from "@/lib/features/economy/service";
import { pendingNftPage, pendingNftsQuery } from "@/lib/features/economy/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My unminted NFT queue",
      description:
        "The caller's collectibles waiting to be minted (status `pending` or `minting`), oldest first (createdAt asc, then id asc), keyset-paginated: `limit` 1..100 (default 50); `nextCursor` is present only when more remain. Minted and failed items are not listed.",
      tags: ["Users"],
      auth: "bearer",
      query: pendingNftsQuery,
      response: pendingNftPage,
    },
    ({ user, query }) => listPendingNfts(db, user.id, query),
  ),
});
