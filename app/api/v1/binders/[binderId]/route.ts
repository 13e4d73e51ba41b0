import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { binderPage, binderParams, binderResponse, itemsQuery, removed, updateBinderBody } from "@/lib/features/binders/schemas";
import { getBinder, removeBinder, renameBinder } from "@/lib/features/binders/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A binder and its items",
      description:
        "The binder and a page of its items in their order (keyset: `limit` 1..100, default 50). Visible to its owner, and to others when it is public and the owner's profile is not private; otherwise 404.",
      tags: ["Binders"],
      auth: "optional",
      params: binderParams,
      query: itemsQuery,
      response: binderPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => getBinder(db, user?.id ?? null, params.binderId, query),
  ),
  PATCH: route(
    {
      summary: "Rename a binder or change its visibility",
      description: "`name` and/or `isPublic` (at least one). Another user's binder: 404.",
      tags: ["Binders"],
      auth: "bearer",
      params: binderParams,
      body: updateBinderBody,
      rateLimit: "write",
      response: binderResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body }) => renameBinder(db, user.id, params.binderId, body),
  ),
  DELETE: route(
    {
      summary: "Delete a binder",
      description: "Deletes the binder (its items stay in the caller's collection). Another user's or an already deleted binder: 404.",
      tags: ["Binders"],
      auth: "bearer",
      params: binderParams,
      rateLimit: "write",
      response: removed,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => removeBinder(db, user.id, params.binderId),
  ),
});
