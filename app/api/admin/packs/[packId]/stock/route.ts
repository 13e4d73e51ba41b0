import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pack, packParams, stockBody } from "@/lib/features/packs/schemas";
import { setStock } from "@/lib/features/packs/service";
import { errors as packsErrors } from "@/lib/features/packs/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Set a pack's stock (staff)",
      description:
        "Sets how many packs are for sale in all, sold ones included (null: unlimited); never below the packs already sold (409 STOCK_BELOW_SOLD). Unknown or inactive pack: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      params: packParams,
      body: stockBody,
      rateLimit: "write",
      response: pack,
      errors: [sharedErrors.NOT_FOUND, packsErrors.STOCK_BELOW_SOLD],
    },
    ({ user, params, body, requestId }) => setStock(db, apiActor(user, requestId), params.packId, body.stock),
  ),
});
