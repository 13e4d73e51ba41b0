import { z } from "zod";
import { pageSchema } from "../http/page";
import { cursorQuery, intQuery, isoDateTime } from "../http/schemas";

export const pendingNftsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });

export const pendingNft = z
  .object({
    id: z.string(),
    itemType: z.string(),
    itemId: z.string(),
    name: z.string(),
    imageUrl: z.string().nullable(),
    status: z.enum(["pending", "minting"]).meta({ description: "pending: queued. minting: being written to the wallet." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "PendingNft" });

export const pendingNftPage = pageSchema("nfts", pendingNft, {
  id: "PendingNftPage",
  nextCursor: "Present only when more queued items remain.",
});
