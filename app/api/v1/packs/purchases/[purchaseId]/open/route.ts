import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { purchaseParams, purchaseResponse } from "@/lib/features/packs/schemas";
import { openPurchase } from "@/lib/features/packs/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Open a pack",
      description:
        "Opens one of the caller's purchases (the starter pack included): draws `itemsPerPack` collectibles from the seed in use against the pack's current odds table and gives the caller each card's next serial. " +
        "Each draw is HMAC-SHA256(seed, \"<purchaseId>:<nonce>:<index>\"): its roll decides the rarity, its pick the card in that rarity's pool (README, Packs); the answer records the seed's hash, the nonce, the odds version and every roll and pick, and the seed is revealed when retired (GET /api/v1/packs/seeds), so anyone can recompute the draws. " +
        "Opening again (also concurrently) answers the same result. Another user's purchase is 404. Rate-limited per user (policy money).",
      tags: ["Packs"],
      auth: "bearer",
      feature: "packs",
      params: purchaseParams,
      bodyRequired: false,
      rateLimit: "money",
      response: purchaseResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => openPurchase(db, user.id, params.purchaseId),
  ),
});
