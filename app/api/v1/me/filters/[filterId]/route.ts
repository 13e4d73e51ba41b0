import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as mutesErrors } from "@/lib/core/mutes/errors";
import { filterParams, filterPatch, filterRemoved, filterResult } from "@/lib/core/mutes/schemas";
import { patchFilter, removeFilter } from "@/lib/core/mutes/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PATCH: route(
    {
      summary: "Update a keyword filter",
      description:
        "Changes the filter's title, keywords (replaced as a whole), contexts or expiresAt (null: never expires); at least one. 404 when the filter is not the caller's; 409 FILTER_LIMIT when the new keywords pass the caller's total.",
      tags: ["Users"],
      auth: "bearer",
      params: filterParams,
      body: filterPatch,
      rateLimit: "write",
      response: filterResult,
      errors: [sharedErrors.NOT_FOUND, mutesErrors.FILTER_LIMIT],
    },
    ({ user, params, body }) => patchFilter(db, user.id, params.filterId, body),
  ),
  DELETE: route(
    {
      summary: "Remove a keyword filter",
      description: "What it hid shows again. 404 when the filter is not the caller's (or already removed).",
      tags: ["Users"],
      auth: "bearer",
      params: filterParams,
      rateLimit: "write",
      response: filterRemoved,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => removeFilter(db, user.id, params.filterId),
  ),
});
