import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { reply } from "@/lib/http/reply";
import { addItemBody, BINDER_ITEMS_MAX, binderParams, binderResponse } from "@/lib/features/binders/schemas";
import { addItem } from "@/lib/features/binders/service";
import { errors as bindersErrors } from "@/lib/features/binders/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Add a collectible to a binder",
      description: `Adds a collectible the caller owns at the end of one of their binders: 201, or 200 when it is already there (nothing changes). An item can be in several binders and leaves them when it changes hands. At most ${BINDER_ITEMS_MAX} items (409 BINDER_FULL). Another user's binder or collectible: 404.`,
      tags: ["Binders"],
      auth: "bearer",
      params: binderParams,
      body: addItemBody,
      rateLimit: "write",
      status: 201,
      responses: { 200: { description: "Already in the binder.", schema: binderResponse } },
      response: binderResponse,
      errors: [sharedErrors.NOT_FOUND, bindersErrors.BINDER_FULL],
    },
    async ({ user, params, body }) => {
      const { created, binder } = await addItem(db, user.id, params.binderId, body.collectibleId);
      return reply({ binder }, { status: created ? 201 : 200 });
    },
  ),
});
