import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { IDEMPOTENCY_TTL_HOURS } from "@/lib/db/idempotency";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as dropsErrors } from "@/lib/features/drops/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { errors as spendingErrors } from "@/lib/features/spending/errors";
import { requestCountry } from "@/lib/features/spending/service";
import { dropParams, entryBody, entryResponse } from "@/lib/features/drops/schemas";
import { enterDrop, getEntry, withdrawEntry } from "@/lib/features/drops/service";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The caller's entry in a drop",
      description:
        "The caller's entry: status, packs asked for and held coins (draw), position once the order is fixed, packs got and their purchases. 404 without one.",
      tags: ["Drops"],
      auth: "bearer",
      params: dropParams,
      response: entryResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getEntry(db, user.id, params.dropId),
  ),
  POST: route(
    {
      summary: "Enter a drop, or buy from its waiting room",
      description:
        "**Draw** (`mode: draw`): enters the draw with `quantity` packs (default 1, at most the per-fan cap), from opensAt (allowlisted fans from allowlistOpensAt) until closesAt; price × quantity is held from the caller's wallet (a `hold` ledger row referencing the entry) until the draw, which buys the packs won with it and refunds the rest once (a `refund` row). One entry per fan: 409 DROP_ALREADY_ENTERED (a withdrawn fan may enter again). " +
        "**Waiting room** (`mode: queue`): joins the waiting room (before opensAt: the position comes from the shuffle at opensAt; later joiners queue behind, in arrival order) and buys `quantity` packs when the caller may: allowlisted fans from allowlistOpensAt, everyone else from opensAt while their position is at most the fans served + the drop's window (`queue.servingUpTo`; 409 DROP_NOT_YOUR_TURN otherwise). A join that cannot buy yet answers the entry with its position. Each pack is a pack purchase paid like a bought one (`purchase` rows), open it with POST /api/v1/packs/purchases/{purchaseId}/open; the drop's stock is counted under its row lock (409 DROP_SOLD_OUT), the per-fan cap under the caller's row lock (409 DROP_CAP_REACHED). " +
        "Eligibility at every entry and purchase (and again at the draw): 403 TRADING_RESTRICTED, 409 ACCOUNT_DELETION_PENDING, 409 WALLET_FROZEN, 403 REGION_RESTRICTED (the request's country or the caller's setting), 409 SPENDING_LIMIT_REACHED (under the wallet's lock), 409 INSUFFICIENT_FUNDS. Outside the windows: 409 DROP_NOT_OPEN (details: when it opens for the caller, or that it closed). Refusals write nothing. " +
        `Requires an \`Idempotency-Key\` header (1..255 visible ASCII): the first successful answer is stored for ${IDEMPOTENCY_TTL_HOURS} h and a retry with the key gets it again with \`Idempotent-Replayed: true\`; the key with another drop or quantity is 409 IDEMPOTENCY_KEY_REUSED; a refused request stores nothing. Rate-limited per user (policy money).`,
      tags: ["Drops"],
      auth: "bearer",
      feature: "packs",
      params: dropParams,
      body: entryBody,
      bodyRequired: false,
      idempotency: "required",
      rateLimit: "money",
      status: 201,
      response: entryResponse,
      errors: [
        sharedErrors.NOT_FOUND,
        dropsErrors.DROP_NOT_OPEN,
        dropsErrors.DROP_ALREADY_ENTERED,
        dropsErrors.DROP_CAP_REACHED,
        dropsErrors.DROP_SOLD_OUT,
        dropsErrors.DROP_NOT_YOUR_TURN,
        ...tradingGateErrors,
        spendingErrors.REGION_RESTRICTED,
        spendingErrors.SPENDING_LIMIT_REACHED,
        walletsErrors.INSUFFICIENT_FUNDS,
        walletsErrors.BALANCE_LIMIT,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, body, idempotency, req }) => enterDrop(db, user.id, params.dropId, body?.quantity ?? 1, requestCountry(req), idempotency),
  ),
  DELETE: route(
    {
      summary: "Withdraw from a drop",
      description:
        "Draw: withdraws the entry before the draw and refunds its hold once (a `refund` row); after closesAt or the draw, 409 DROP_ENTRY_CLOSED. Waiting room: leaves it before buying (409 DROP_ENTRY_CLOSED after a purchase or the close). 404 without an entry.",
      tags: ["Drops"],
      auth: "bearer",
      params: dropParams,
      rateLimit: "money",
      response: entryResponse,
      errors: [sharedErrors.NOT_FOUND, dropsErrors.DROP_ENTRY_CLOSED, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params }) => withdrawEntry(db, user.id, params.dropId),
  ),
});
