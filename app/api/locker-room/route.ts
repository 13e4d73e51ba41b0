import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { ALT_MAX, CONTENT_MAX, createPostBody, feedQuery, MEDIA_MAX, post, postPage, SCHEDULE_MAX_DAYS } from "@/lib/features/lockerroom/schemas";
import { createPost, feed } from "@/lib/features/lockerroom/service";
import { IDEMPOTENCY_HEADER } from "@/lib/db/idempotency";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { errors as visibilityErrors } from "@/lib/core/visibility/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The locker-room feed",
      description:
        "Posts newest first by publish time, then id (keyset: `limit` 1..50, default 20; `nextCursor` only when more remain; equal publish times never skip or repeat a post). " +
        "Filters: `teamId` (posts about the team or posted as it), `authorId`, `following=true` (posts about or by teams the caller follows, and posts by fans the caller follows; 401 signed out). " +
        "Signed out: public posts only. Signed in: also private posts of teams the caller follows or joined, and the caller's own; never posts of users the caller blocked or who blocked the caller. " +
        "A scheduled post appears exactly at its publish time (the feed filters on it). Deleted and hidden posts are never listed. " +
        "Signed in, posts by accounts the caller mutes and posts matching the caller's `feed` keyword filters are left out of the page read: a page may come back short (even empty) with a `nextCursor` that continues after the last post read, so no post is skipped or repeated; page on `nextCursor`, not on a full page. " +
        "Signed out, the answer may be up to a second old: a server shares one answer per query among anonymous callers for `ANONYMOUS_CACHE_TTL_MS` (1 s), so a new, scheduled or removed post reaches them up to that much later. Signed-in callers always read fresh.",
      tags: ["Locker room"],
      auth: "optional",
      anonymousCache: true,
      query: feedQuery,
      response: postPage,
      errors: [sharedErrors.UNAUTHORIZED],
    },
    ({ user, query }) => feed(db, user, query),
  ),
  POST: route(
    {
      summary: "Create a locker-room post",
      description:
        `Needs the current Terms of Use accepted (else 403 UGC_TERMS_REQUIRED) and no posting suspension (403 POSTING_SUSPENDED). ` +
        `\`content\` at most ${CONTENT_MAX} characters, empty only with media, a poll, a collectible or a lineup attached; up to ${MEDIA_MAX} media (the caller's pending locker-media uploads, alt text up to ${ALT_MAX}); ` +
        "a poll of 2..5 distinct options open 5 minutes to 31 days; `visibility` public (default) or private (the team's fans: a private post needs a team). " +
        "`authorTeamId` (alias `postAsTeamId`) posts as a team: its staff accounts and staff only (403 CANNOT_POST_AS_TEAM; both given and different is 400). " +
        `\`scheduledFor\` publishes later (in the future, at most ${SCHEDULE_MAX_DAYS} days ahead): the post is listed in GET /api/locker-room/scheduled until then. ` +
        `An \`${IDEMPOTENCY_HEADER}\` header (1..255 visible ASCII) makes retries safe: the same key with the same body answers the first post (201, \`Idempotent-Replayed: true\`), also under concurrent retries; with another body 409 IDEMPOTENCY_KEY_REUSED. Keys are kept with the post. ` +
        "`quotedPostId` makes the post a quote of a published public post the caller may see (404 otherwise; 409 POST_NOT_SHAREABLE for a private or scheduled one): it is embedded as `quotedPost` for each reader who may see it (else `{ id, unavailable: true }`), and its author is notified (QUOTE). " +
        "Every 400 names the field. Rate-limited per user (policy ugc).",
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      idempotency: "optional",
      body: createPostBody,
      rateLimit: "ugc",
      status: 201,
      response: post,
      errors: [
        visibilityErrors.UGC_TERMS_REQUIRED,
        visibilityErrors.POSTING_SUSPENDED,
        lockerroomErrors.CANNOT_POST_AS_TEAM,
        lockerroomErrors.POST_NOT_SHAREABLE,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
        sharedErrors.NOT_FOUND,
      ],
    },
    ({ user, body, idempotency }) => createPost(db, user, body, idempotency?.key ?? null),
  ),
});
