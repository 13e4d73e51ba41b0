import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pageQuery, postIdParams, postPage } from "@/lib/features/lockerroom/schemas";
import { listQuotes } from "@/lib/features/lockerroom/reposts";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A post's quotes",
      description:
        "The posts quoting this one, newest first (keyset by publish time, then id: `limit` 1..50, default 20; `nextCursor` only when more remain). 404 when the caller may not see the post. " +
        "Each quote is one the caller may see (never deleted, hidden, private to a team they are not a fan of, or by a user in a block either way with them) and not detached by the quoted post's author. " +
        "Signed in, quotes by accounts the caller mutes and quotes matching the caller's `feed` keyword filters are left out of the page read: a page may come back short (even empty) with a `nextCursor` continuing after the last one read.",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      query: pageQuery,
      response: postPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listQuotes(db, user, params.postId, query),
  ),
});
