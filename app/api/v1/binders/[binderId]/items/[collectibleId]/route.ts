import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { itemParams, removed } from "@/lib/features/binders/schemas";
import { removeItem } from "@/lib/features/binders/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Remove a collectible from a binder",
      description:
        "Removes the item from the binder (it stays in the caller's collection); `removed: false` when it was not there. Another user's binder: 404.",
      tags: ["Binders"],
      auth: "bearer",
      params: itemParams,
      rateLimit: "write",
      response: removed,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => removeItem(db, user.id, params.binderId, params.collectibleId),
  ),
});
