import { db } from "@/lib/db/client";
import { userRefParams } from "@/lib/core/follows/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { userReposts } from "@/lib/features/lockerroom/reposts";
import { pageQuery, repostPage } from "@/lib/features/lockerroom/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A fan's reposts",
      description:
        "`{userId}` is the user's id or `@handle`. The posts the fan reposted, newest repost first (keyset by repost time, then post id: `limit` 1..50, default 20; `nextCursor` only when more remain), each as the feed serializes it plus `repostedAt`. " +
        "Posts the caller may not see drop out in the statement that reads them (deleted, hidden, blocks either way with their author), and so do posts by accounts the caller mutes: a page may be short with a `nextCursor` continuing after the last one read. 404 for an unknown user or a block either way.",
      tags: ["Locker room"],
      auth: "optional",
      params: userRefParams,
      query: pageQuery,
      response: repostPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => userReposts(db, user, params.userId, query),
  ),
});
