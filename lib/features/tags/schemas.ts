import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime } from "../../kernel/schemas";
import { post } from "../lockerroom/schemas";
import { TAG_MAX_LENGTH, tagKey } from "../lockerroom/service";

// Tags, mentions and trends: inputs and outputs (rules in docs/domains/tags.md).

/** Fans who may follow at most this many tags (Mastodon has no cap; the following feed reads them all). */
export const TAG_FOLLOWS_MAX = 500;
/** The trends' sliding window. */
export const TRENDS_WINDOW_HOURS = 24;
export const TREND_STATUSES = ["pending", "approved", "rejected"] as const;
export type TrendStatus = (typeof TREND_STATUSES)[number];

/** A tag in a path: as written (with or without a leading `#`, any case), turned into its key. */
const tagParam = z
  .string()
  .min(1)
  .max(TAG_MAX_LENGTH * 4)
  .transform((s, ctx) => {
    const key = tagKey(s.replace(/^#/, ""));
    if (!key) {
      ctx.addIssue({
        code: "custom",
        message: `Not a hashtag: letters, marks, digits and underscores, at least one letter, at most ${TAG_MAX_LENGTH} characters`,
      });
      return z.NEVER;
    }
    return key;
  })
  .meta({
    description: "The hashtag, without `#` (any case: it is NFKC-normalized and lower-cased into its key, e.g. `Fußball` → `fußball`).",
    examples: ["Fußball"],
  });

export const tagParams = z.strictObject({ tag: tagParam });

export const tagPageQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });
export const followedTagsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });
export const trendsQuery = z.strictObject({ limit: intQuery(1, 20, 10) });
export const adminTrendsQuery = z.strictObject({
  status: z.enum(TREND_STATUSES).default("pending").meta({ description: "Which review state to list (default pending)." }),
  limit: intQuery(1, 100, 50),
});
export const reviewTagBody = z
  .strictObject({
    status: z.enum(TREND_STATUSES).meta({ description: "approved: may trend; rejected: never trends; pending: back to review (does not trend)." }),
  })
  .meta({ id: "TagReviewInput" });

export const tag = z
  .object({
    tag: z.string().meta({ description: "The key: NFKC-normalized, lower-cased; what routes and follows use." }),
    name: z.string().meta({ description: "The form first seen, for display." }),
    following: z.boolean().meta({ description: "Whether the caller follows it (false signed out)." }),
  })
  .meta({ id: "Tag" });

export const tagPage = z
  .object({
    tag,
    posts: z.array(post),
    nextCursor: z.string().optional().meta({ description: "Present only when more posts remain." }),
  })
  .meta({ id: "TagPage" });

export const tagFollowState = z
  .object({
    tag: z.string(),
    following: z.boolean(),
    followedAt: isoDateTime.nullable().meta({ description: "When the caller first followed it (a repeated PUT keeps it); null once unfollowed." }),
  })
  .meta({ id: "TagFollow" });

export const followedTagsPage = z
  .object({
    tags: z.array(z.object({ tag: z.string(), name: z.string(), following: z.literal(true), followedAt: isoDateTime }).meta({ id: "FollowedTag" })),
    nextCursor: z.string().optional().meta({ description: "Present only when more remain." }),
  })
  .meta({ id: "FollowedTagPage" });

export const trends = z
  .object({
    window: z.object({ hours: z.number().int(), since: isoDateTime }).meta({ description: "The sliding window the counts cover." }),
    tags: z.array(
      z
        .object({
          tag: z.string(),
          name: z.string(),
          fans: z.number().int().meta({ description: "Distinct fans who used it in the window, in public live posts and in live comments on them." }),
        })
        .meta({ id: "TrendingTag" }),
    ),
    posts: z.array(
      post
        .extend({ trendFans: z.number().int().meta({ description: "Distinct fans (not its author) who reacted to or commented on it in the window." }) })
        .meta({ id: "TrendingPost" }),
    ),
  })
  .meta({ id: "Trends" });

export const adminTrendTag = z
  .object({
    tag: z.string(),
    name: z.string(),
    status: z.enum(TREND_STATUSES),
    fans: z.number().int().meta({ description: "Distinct fans who used it in the trends' window (public live posts and live comments on them)." }),
    posts: z.number().int().meta({ description: "Public live posts with it in the window." }),
    reviewedAt: isoDateTime.nullable(),
    reviewedBy: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "AdminTrendTag" });

export const adminTrends = z.object({ status: z.enum(TREND_STATUSES), tags: z.array(adminTrendTag) }).meta({ id: "AdminTrends" });
export const adminTrendTagResponse = z.object({ tag: adminTrendTag }).meta({ id: "AdminTrendTagResponse" });
