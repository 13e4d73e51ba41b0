import { db } from "@/lib/db/client";
import { followListQuery, followRequestPage } from "@/lib/core/follows/schemas";
import { listFollowRequests } from "@/lib/core/follows/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Requests to follow me",
      description:
        "The pending requests to follow the caller's private profile, newest first (requestedAt desc, then user id desc), keyset-paginated: `limit` 1..100 (default 20); `nextCursor` is present only when more remain. " +
        "Accept or reject each under /api/v1/me/follow-requests/{userId}. Making the profile public (PATCH /api/user/settings `privateProfile: false`) accepts them all.",
      tags: ["Follows"],
      auth: "bearer",
      query: followListQuery,
      response: followRequestPage,
    },
    ({ user, query }) => listFollowRequests(db, user.id, query),
  ),
});
