import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { reply } from "@/lib/http/reply";
import { mintBody, mintPage, mintResponse, mintsQuery } from "@/lib/features/economy/schemas";
import { listMints, MINT_MAX_ATTEMPTS, requestMint } from "@/lib/features/economy/service";
import { errors as economyErrors } from "@/lib/features/economy/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My mint requests",
      description:
        "The caller's mint requests in every state (pending, minting, minted with `txHash` and `tokenId`, failed with `lastError`), newest first. Keyset: `limit` 1..100 (default 20).",
      tags: ["NFTs"],
      auth: "bearer",
      query: mintsQuery,
      response: mintPage,
    },
    ({ user, query }) => listMints(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Mint a collectible to my wallet",
      description: `Queues the mint of a collectible the caller owns to their linked wallet (409 WALLET_NOT_LINKED without one); a listed item cannot be minted (409 ITEM_LISTED), nor one in an entry of a collection challenge that has not ended (409 ITEM_LOCKED, naming the challenge). A fan who may not trade cannot mint: 403 TRADING_RESTRICTED (a sanction, its end in details), 409 ACCOUNT_DELETION_PENDING, 409 WALLET_FROZEN (a refunded top-up's debt). An item is minted at most once: asking again, also concurrently, answers 200 with the live request. The mint worker (a cron route) hands it to the provider and retries failures with backoff (30 s doubling, at most an hour) up to ${MINT_MAX_ATTEMPTS} attempts; a request that failed for good may be made again. Someone else's or an unknown collectible: 404.`,
      tags: ["NFTs"],
      auth: "bearer",
      body: mintBody,
      rateLimit: "money",
      status: 201,
      responses: { 200: { description: "The item's live mint request (already queued, minting or minted).", schema: mintResponse } },
      response: mintResponse,
      errors: [sharedErrors.NOT_FOUND, economyErrors.WALLET_NOT_LINKED, economyErrors.ITEM_LISTED, challengesErrors.ITEM_LOCKED, ...tradingGateErrors],
    },
    async ({ user, body }) => {
      const { created, mint } = await requestMint(db, user.id, body.collectibleId);
      return reply({ mint }, { status: created ? 201 : 200 });
    },
  ),
});
