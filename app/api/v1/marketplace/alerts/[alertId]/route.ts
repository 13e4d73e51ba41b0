import { z } from "zod";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { alertParams } from "@/lib/core/market-data/schemas";
import { removeAlert } from "@/lib/core/market-data/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Delete a price alert",
      description: "Deletes one of the caller's alerts. Unknown or another fan's: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: alertParams,
      rateLimit: "write",
      response: z.object({ removed: z.literal(true) }),
      errors: [sharedErrors.NOT_FOUND],
    },
    async ({ user, params }) => {
      await removeAlert(db, user.id, params.alertId);
      return { removed: true as const };
    },
  ),
});
