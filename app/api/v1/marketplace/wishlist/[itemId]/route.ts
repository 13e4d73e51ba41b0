import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { z } from "zod";
import { wishParams } from "@/lib/features/marketplace/schemas";
import { removeWish } from "@/lib/features/marketplace/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Remove from my wishlist",
      description: "Removes the entry (its `id`). Unknown or another user's: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: wishParams,
      rateLimit: "write",
      response: z.object({ removed: z.literal(true) }),
      errors: [sharedErrors.NOT_FOUND],
    },
    async ({ user, params }) => {
      await removeWish(db, user.id, params.itemId);
      return { removed: true as const };
    },
  ),
});
