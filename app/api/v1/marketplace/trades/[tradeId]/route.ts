import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { tradeParams, tradeResponse } from "@/lib/features/marketplace/trade-schemas";
import { getTrade } from "@/lib/features/marketplace/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A trade",
      description: "A trade or gift, with both sides' items and coins, to its two parties only: anyone else gets 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: tradeParams,
      response: tradeResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getTrade(db, user.id, params.tradeId),
  ),
});
