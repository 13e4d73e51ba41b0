import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { IDEMPOTENCY_TTL_HOURS } from "@/lib/db/idempotency";
import { packParams, purchaseResponse } from "@/lib/features/packs/schemas";
import { buyPack } from "@/lib/features/packs/service";
import { errors as packsErrors } from "@/lib/features/packs/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { errors as spendingErrors } from "@/lib/features/spending/errors";
import { requestCountry } from "@/lib/features/spending/service";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Buy a pack",
      description:
        "Buys one pack with the caller's wallet: takes it from stock, records an unopened purchase and debits the price (a `purchase` ledger row referencing the purchase), in one transaction. " +
        `Requires an \`Idempotency-Key\` header (1..255 visible ASCII): the first successful answer is stored for ${IDEMPOTENCY_TTL_HOURS} h and a retry with the key gets it again with \`Idempotent-Replayed: true\` (concurrent retries included); the key with another pack is 409 IDEMPOTENCY_KEY_REUSED; a refused request stores nothing. ` +
        "Refusals write nothing: 404 unknown pack, 409 PACK_NOT_FOR_SALE (outside its window, or the starter pack), 409 SOLD_OUT, 403 TRADING_RESTRICTED, 409 ACCOUNT_DELETION_PENDING or 409 WALLET_FROZEN (the trading gate: a sanction, a scheduled deletion, a debt from a refunded top-up), 403 REGION_RESTRICTED (packs are not sold in the caller's country: the request's, from the hosting edge, or the one in their settings), 409 SPENDING_LIMIT_REACHED (the price would pass the caller's daily or monthly pack limit, checked under their wallet's lock: GET /api/v1/me/spending-limits), 409 INSUFFICIENT_FUNDS. Open it with POST /api/v1/packs/purchases/{purchaseId}/open. Rate-limited per user (policy money).",
      tags: ["Packs"],
      auth: "bearer",
      feature: "packs",
      idempotency: "required",
      params: packParams,
      bodyRequired: false,
      rateLimit: "money",
      status: 201,
      response: purchaseResponse,
      errors: [
        sharedErrors.NOT_FOUND,
        packsErrors.PACK_NOT_FOR_SALE,
        packsErrors.SOLD_OUT,
        ...tradingGateErrors,
        spendingErrors.REGION_RESTRICTED,
        spendingErrors.SPENDING_LIMIT_REACHED,
        walletsErrors.INSUFFICIENT_FUNDS,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, idempotency, req }) => buyPack(db, user.id, params.packId, idempotency, requestCountry(req)),
  ),
});
