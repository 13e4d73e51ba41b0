import { z } from "zod";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

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

export const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const linkedWalletResponse = z
  .object({
    address: z.string().nullable().meta({ description: "The linked wallet (0x + 40 hex), or null." }),
    linkedAt: isoDateTime.nullable(),
  })
  .meta({ id: "LinkedWallet" });

export const linkWalletBody = z
  .strictObject({
    address: z
      .string()
      .regex(WALLET_ADDRESS, "Expected 0x and 40 hex digits")
      .meta({ description: "The address the wallet app returned (#wallet=… of /api/mobile/wallet-callback)." }),
  })
  .meta({ id: "LinkWallet" });

export const mintRequest = z
  .object({
    id: z.string(),
    collectibleId: z.string(),
    name: z.string(),
    imageUrl: z.string().nullable(),
    status: z.enum(["pending", "minting", "minted", "failed"]),
    walletAddress: z.string().nullable(),
    attempts: z.number().int(),
    nextAttemptAt: isoDateTime.nullable().meta({ description: "While pending: when the worker tries next." }),
    lastError: z.string().nullable(),
    txHash: z.string().nullable(),
    tokenId: z.string().nullable(),
    createdAt: isoDateTime,
    mintedAt: isoDateTime.nullable(),
  })
  .meta({ id: "NftMint" });

export const mintResponse = z.object({ mint: mintRequest }).meta({ id: "NftMintResponse" });
export const mintPage = pageSchema("mints", mintRequest, { id: "NftMintPage" });
export const mintBody = z.strictObject({ collectibleId: uuidString("A collectible the caller owns.") }).meta({ id: "NftMintCreate" });
export const mintsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const mintRun = z
  .object({ claimed: z.number().int(), minted: z.number().int(), retrying: z.number().int(), failed: z.number().int() })
  .meta({ id: "NftMintRun" });
