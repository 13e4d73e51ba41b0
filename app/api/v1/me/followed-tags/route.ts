import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { followedTagsPage, followedTagsQuery } from "@/lib/features/tags/schemas";
import { followedTags } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My followed hashtags",
      description:
        "The tags the caller follows (Mastodon's followed_tags), most recently followed first (keyset by follow time, then tag: `limit` 1..100, default 50; `nextCursor` only when more remain). Private: nobody else sees them.",
      tags: ["Tags"],
      auth: "bearer",
      query: followedTagsQuery,
      response: followedTagsPage,
    },
    ({ user, query }) => followedTags(db, user, query),
  ),
});
