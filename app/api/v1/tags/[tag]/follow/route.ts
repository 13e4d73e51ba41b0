import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as tagsErrors } from "@/lib/features/tags/errors";
import { TAG_FOLLOWS_MAX, tagFollowState, tagParams } from "@/lib/features/tags/schemas";
import { followTag, unfollowTag } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Follow a hashtag",
      description:
        "The caller follows the tag (Mastodon's followed tags; listed by GET /api/v1/me/followed-tags), creating it when nobody used it yet. Idempotent, also under concurrent calls: one follow, its first time kept; answers `{ tag, following: true, followedAt }`. " +
        `At most ${TAG_FOLLOWS_MAX} followed tags (409 TAG_FOLLOW_LIMIT past it, counted under the caller's lock). The path's tag is normalized as on GET /api/v1/tags/{tag}.`,
      tags: ["Tags"],
      auth: "bearer",
      params: tagParams,
      rateLimit: "write",
      response: tagFollowState,
      errors: [tagsErrors.TAG_FOLLOW_LIMIT],
    },
    ({ user, params }) => followTag(db, user, params.tag),
  ),
  DELETE: route(
    {
      summary: "Unfollow a hashtag",
      description:
        "Removes the caller's follow of the tag, if any. Idempotent: answers `{ tag, following: false, followedAt: null }` whether or not there was one, and whether or not the tag exists.",
      tags: ["Tags"],
      auth: "bearer",
      params: tagParams,
      rateLimit: "write",
      response: tagFollowState,
    },
    ({ user, params }) => unfollowTag(db, user, params.tag),
  ),
});
