import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { purchaseParams, purchaseResponse } from "@/lib/features/packs/schemas";
import { getPurchase } from "@/lib/features/packs/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A pack purchase",
      description: "One of the caller's purchases, with its opening once opened. Another user's purchase is 404.",
      tags: ["Packs"],
      auth: "bearer",
      params: purchaseParams,
      response: purchaseResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getPurchase(db, user.id, params.purchaseId),
  ),
});
