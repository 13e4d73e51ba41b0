import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pageQuery, postEditsPage, postIdParams } from "@/lib/features/lockerroom/schemas";
import { listEdits } from "@/lib/features/lockerroom/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A post's edit history",
      description: "The texts the post's edits replaced, oldest first (keyset). Visible to whoever may see the post (else 404).",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      query: pageQuery,
      response: postEditsPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listEdits(db, user, params.postId, query),
  ),
});
