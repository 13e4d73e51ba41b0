import { db } from "@/lib/db/client";
import { errors as followsErrors } from "@/lib/core/follows/errors";
import { followListQuery, followingPage, userRefParams } from "@/lib/core/follows/schemas";
import { listFollows } from "@/lib/core/follows/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Whom a fan follows",
      description:
        "`{userId}` is the user's id or `@handle`. The fans the fan follows, newest follow first (followedAt desc, then user id desc), keyset-paginated: `limit` 1..100 (default 20); `nextCursor` is present only when more remain. " +
        "Fans in a block relation with the caller are left out (a page may hold fewer than `limit`; the cursor still continues). " +
        "A private profile's list only to its followers, the fan themselves and staff (else 403 PROFILE_PRIVATE). 404 for an unknown user or a block either way.",
      tags: ["Follows"],
      auth: "optional",
      params: userRefParams,
      query: followListQuery,
      response: followingPage,
      errors: [sharedErrors.NOT_FOUND, followsErrors.PROFILE_PRIVATE],
    },
    ({ user, params, query }) => listFollows(db, user, params.userId, "following", query),
  ),
});
