import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { createDropBody, dropResponse } from "@/lib/features/drops/schemas";
import { createDrop } from "@/lib/features/drops/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Create a drop (staff)",
      description:
        "Creates a drop of an active pack (not the starter pack; unknown or inactive: 404): mode draw or queue, price per pack, quantity (the drop's own stock, apart from the pack's store stock), per-fan cap, opensAt and closesAt (after opensAt), the waiting room's window (queue; default the quantity) and an optional allowlist (user ids and/or a team's members at creation) who may start from `allowlist.opensAt` (before opensAt). " +
        "The seed that will order it is drawn now and only its SHA-256 published (`seedHash`); it is revealed once the order is fixed.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      body: createDropBody,
      rateLimit: "write",
      status: 201,
      response: dropResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, body, requestId }) => createDrop(db, body, apiActor(user, requestId)),
  ),
});
