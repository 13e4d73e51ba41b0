import { z } from "zod";
import { cursorQuery, intQuery } from "../../kernel/schemas";
import { post } from "../lockerroom/schemas";
import { teamSummary } from "../../core/teams/schemas";

// Feeds: GET /api/v1/feeds (the feeds a fan can open) and GET /api/v1/feeds/{feedId} (a page of one).

export const FEED_ID_MAX = 80;

export const feedIdParams = z.strictObject({
  feedId: z
    .string()
    .min(1)
    .max(FEED_ID_MAX)
    .meta({
      description: "`for-you`, `following` or `team:{teamId}` (a team id or slug; the colon may be sent as `%3A`).",
      examples: ["for-you", "team:tm_hch"],
    }),
});

export const feedQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

const order = z.enum(["ranked", "newest"]).meta({
  description: "`ranked`: the for-you ranking (a snapshot made for the caller; see the feed's description). `newest`: newest first by publish time, then id.",
});

export const feedInfo = z
  .object({
    id: z.string().meta({ description: "The feed's id for GET /api/v1/feeds/{feedId}." }),
    kind: z.enum(["for-you", "following", "team"]),
    title: z.string(),
    order,
    team: teamSummary.nullable().meta({ description: "The team of a `team:` feed; null for the others." }),
  })
  .meta({ id: "FeedInfo" });

export const feedList = z.object({ feeds: z.array(feedInfo) }).meta({ id: "FeedList" });

export const feedPage = z
  .object({
    feedId: z.string(),
    order,
    posts: z.array(post).meta({ description: "Each post as the locker-room feed serializes it." }),
    nextCursor: z
      .string()
      .optional()
      .meta({ description: "Present only when more posts remain. A page may come back short (even empty) with a nextCursor: page on it, not on a full page." }),
  })
  .meta({ id: "FeedPage" });
