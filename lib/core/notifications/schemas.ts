import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { teamSummary } from "../teams/schemas";

export const NOTIFICATION_TYPES = [
  "GAME_ALERT",
  "RATING",
  "MILESTONE",
  "TEAM_POST",
  "POST_PUBLISHED",
  "REPLY",
  "REACTION",
  "WISHLIST_LISTED",
  "OUTBID",
  "OFFER_UPDATE",
  "FOLLOW",
  "FOLLOW_REQUEST",
  "TRADE_UPDATE",
  "PRICE_ALERT",
  "STREAK_AT_RISK",
  "MENTION",
  "REPOST",
  "QUOTE",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_FILTERS = ["inbox", "unread", "archived", "all"] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];

/** The unread count stops counting here: past it the answer is `{ count: 99, capped: true }` ("99+"). */
export const UNREAD_COUNT_CAP = 99;

/** Producers' windows and thresholds (README "Notifications"). */
export const GAME_ALERT_WINDOW_HOURS = 24;
export const RATING_WINDOW_HOURS = 48;
export const REP_MILESTONES = [100, 500, 1000, 5000] as const;

const uuid = uuidString;

export const notificationIdParams = z.strictObject({ notificationId: uuid("Notification id (UUID).") });

const typesQuery = z
  .string()
  .transform((s) => s.split(","))
  .pipe(z.array(z.enum(NOTIFICATION_TYPES, { error: `Expected a comma-separated list of ${NOTIFICATION_TYPES.join(", ")}` })).min(1))
  .optional()
  .meta({
    description: `Only these types: a comma-separated list of ${NOTIFICATION_TYPES.join(", ")} (default: every type).`,
    examples: ["GAME_ALERT,RATING"],
  });

export const notificationListQuery = z.strictObject({
  filter: z.enum(NOTIFICATION_FILTERS).default("inbox").meta({
    description:
      "Which notifications (default inbox). inbox: not archived, read or unread. unread: not read (archived ones are always read). archived: archived only, most recently archived first (archivedAt desc, then id desc). all: every notification. inbox, unread and all are newest first (id desc: ids are UUIDv7, time-ordered). A cursor continues only the filter it came from.",
  }),
  types: typesQuery,
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});

export const readAllBody = z
  .strictObject({
    upTo: uuid(
      "The newest notification id the client has shown: newer ones (greater ids) stay unread. Without it, notifications created after the request started stay unread.",
    ).optional(),
  })
  .meta({ id: "NotificationReadAll" });

const text = {
  title: z.string().meta({ description: "Headline to show." }),
  body: z.string().meta({ description: "One or two sentences under the headline." }),
  href: z.string().meta({ description: "API path of what the notification is about (deep link): the event, the rewards, or the post." }),
};

const gamePayload = {
  gameId: z.string(),
  leagueId: z.string(),
  startsAt: isoDateTime,
  homeTeam: teamSummary,
  awayTeam: teamSummary,
};

export const gameAlertPayload = z
  .object({ ...gamePayload, venue: z.string().nullable(), ...text })
  .meta({ id: "GameAlertPayload", description: "A followed team's game starts soon." });

export const ratingPayload = z
  .object({
    ...gamePayload,
    score: z.object({ home: z.number().int(), away: z.number().int() }).nullable(),
    repAward: z.number().int().meta({ description: "Rep the first rating of this game awards." }),
    ...text,
  })
  .meta({ id: "RatingPromptPayload", description: "A followed team's game is final: rate its players." });

export const milestonePayload = z
  .object({
    metric: z.literal("rep_balance").meta({ description: "What crossed the threshold: the spendable Rep balance." }),
    threshold: z.number().int(),
    ...text,
  })
  .meta({ id: "MilestonePayload", description: "The caller's Rep reached a milestone." });

export const teamPostPayload = z
  .object({ postId: z.string(), team: teamSummary, ...text })
  .meta({ id: "TeamPostPayload", description: "A team the user follows posted in the locker room (sent to followers with notifyTeams on)." });

export const postPublishedPayload = z
  .object({ postId: z.string(), ...text })
  .meta({ id: "PostPublishedPayload", description: "The user's scheduled locker-room post went live." });

const actor = z
  .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
  .meta({ id: "NotificationActor", description: "Who did it." });

export const replyPayload = z
  .object({
    postId: z.string(),
    commentId: z.string().meta({ description: "The new comment." }),
    parentId: z.string().nullable().meta({ description: "The user's comment it replies to; null for a comment on the user's post." }),
    actor,
    ...text,
  })
  .meta({ id: "ReplyPayload", description: "Someone commented on the user's post or replied to the user's comment (with notifyCommunity on)." });

export const reactionPayload = z
  .object({ postId: z.string(), kind: z.string().meta({ description: "The reaction kind." }), actor, ...text })
  .meta({ id: "ReactionPayload", description: "Someone reacted to the user's post (with notifyCommunity on); grouped per post." });

export const repostPayload = z
  .object({ postId: z.string(), actor, ...text })
  .meta({ id: "RepostPayload", description: "Someone reposted the user's post (with notifyCommunity on); grouped per post." });

export const quotePayload = z
  .object({ postId: z.string().meta({ description: "The user's quoted post." }), quotePostId: z.string().meta({ description: "The quote." }), actor, ...text })
  .meta({ id: "QuotePayload", description: "Someone quoted the user's post (with notifyCommunity on)." });

export const wishlistListedPayload = z
  .object({ listingId: z.string(), collectibleId: z.string(), cardId: z.string(), price: z.number().int(), ...text })
  .meta({ id: "WishlistListedPayload", description: "An item on the user's wishlist (that card, or that very collectible) was listed for sale." });

export const outbidPayload = z
  .object({ listingId: z.string(), yourBid: z.number().int(), currentBid: z.number().int(), ...text })
  .meta({ id: "OutbidPayload", description: "Someone bid more on an auction the user led; the user's held funds are back in their wallet." });

export const priceAlertPayload = z
  .object({
    alertId: z.string(),
    listingId: z.string(),
    cardId: z.string(),
    serial: z.number().int(),
    price: z.number().int(),
    maxPrice: z.number().int(),
    ...text,
  })
  .meta({ id: "PriceAlertPayload", description: "A copy of a card the user has a price alert for was listed (or repriced) at or below the alert's price." });

export const offerUpdatePayload = z
  .object({ offerId: z.string(), collectibleId: z.string(), status: z.enum(["accepted", "declined"]), amount: z.number().int(), ...text })
  .meta({ id: "OfferUpdatePayload", description: "The owner accepted (the item is the user's) or declined (the funds are back) the user's offer." });

export const tradeUpdatePayload = z
  .object({
    tradeId: z.string(),
    event: z.enum(["proposed", "countered", "accepted", "declined", "void"]).meta({
      description:
        "proposed: a trade or gift was proposed to the user; countered: the user's trade was answered with this new one; accepted, declined: the user's proposal was; void: accepting it found an item or coin leg no longer good (nothing moved, held coins back).",
    }),
    gift: z.boolean(),
    status: z.string().meta({ description: "The trade's status when the notification was written." }),
    counterOfId: z.string().nullable(),
    voidReason: z.string().nullable(),
    actor,
    ...text,
  })
  .meta({ id: "TradeUpdatePayload", description: "A trade or gift between the user and another fan changed (GET /api/v1/marketplace/trades/{tradeId})." });

export const followPayload = z
  .object({ actor, ...text })
  .meta({ id: "FollowPayload", description: "Someone followed the user (with notifyCommunity on); grouped per UTC day." });

export const followRequestPayload = z.object({ actor, ...text }).meta({
  id: "FollowRequestPayload",
  description: "Someone asked to follow the user's private profile (with notifyCommunity on): GET /api/v1/me/follow-requests; grouped per UTC day.",
});

export const streakAtRiskPayload = z
  .object({
    day: z.string().meta({ description: "The UTC day (YYYY-MM-DD) the streak needs a completed daily quest on." }),
    streak: z.number().int().meta({ description: "The streak's length when it was written." }),
    endsAt: isoDateTime.meta({ description: "When that UTC day ends." }),
    ...text,
  })
  .meta({
    id: "StreakAtRiskPayload",
    description: "The fan's daily streak ends with today's UTC day unless they complete a daily quest (GET /api/v1/engage/streak).",
  });

export const mentionPayload = z
  .object({
    postId: z.string(),
    commentId: z.string().nullable().meta({ description: "The comment that mentions the user; null when the post itself does." }),
    actor,
    ...text,
  })
  .meta({ id: "MentionPayload", description: "A post or comment mentioned the user (@handle; with notifyCommunity on); grouped per post." });

const base = {
  id: z.string().meta({ description: "UUIDv7: time-ordered." }),
  createdAt: isoDateTime,
  readAt: isoDateTime.nullable().meta({ description: "When it was first read (archiving reads it too); null while unread." }),
  archivedAt: isoDateTime.nullable().meta({ description: "When it was archived; null in the inbox." }),
};

export const notification = z
  .discriminatedUnion("type", [
    z.object({ ...base, type: z.literal("GAME_ALERT"), payload: gameAlertPayload }),
    z.object({ ...base, type: z.literal("RATING"), payload: ratingPayload }),
    z.object({ ...base, type: z.literal("MILESTONE"), payload: milestonePayload }),
    z.object({ ...base, type: z.literal("TEAM_POST"), payload: teamPostPayload }),
    z.object({ ...base, type: z.literal("POST_PUBLISHED"), payload: postPublishedPayload }),
    z.object({ ...base, type: z.literal("REPLY"), payload: replyPayload }),
    z.object({ ...base, type: z.literal("REACTION"), payload: reactionPayload }),
    z.object({ ...base, type: z.literal("WISHLIST_LISTED"), payload: wishlistListedPayload }),
    z.object({ ...base, type: z.literal("OUTBID"), payload: outbidPayload }),
    z.object({ ...base, type: z.literal("OFFER_UPDATE"), payload: offerUpdatePayload }),
    z.object({ ...base, type: z.literal("FOLLOW"), payload: followPayload }),
    z.object({ ...base, type: z.literal("FOLLOW_REQUEST"), payload: followRequestPayload }),
    z.object({ ...base, type: z.literal("TRADE_UPDATE"), payload: tradeUpdatePayload }),
    z.object({ ...base, type: z.literal("PRICE_ALERT"), payload: priceAlertPayload }),
    z.object({ ...base, type: z.literal("STREAK_AT_RISK"), payload: streakAtRiskPayload }),
    z.object({ ...base, type: z.literal("REPOST"), payload: repostPayload }),
    z.object({ ...base, type: z.literal("QUOTE"), payload: quotePayload }),
    z.object({ ...base, type: z.literal("MENTION"), payload: mentionPayload }),
  ])
  .meta({ id: "Notification" });

export const notificationPage = z
  .object({
    notifications: z.array(notification),
    nextCursor: z.string().optional().meta({ description: "Present only when more notifications remain." }),
  })
  .meta({ id: "NotificationPage" });

export const unreadCount = z
  .object({
    count: z
      .number()
      .int()
      .meta({ description: `Unread notifications, at most ${UNREAD_COUNT_CAP}.` }),
    capped: z.boolean().meta({ description: `True when there are more than ${UNREAD_COUNT_CAP} (show "${UNREAD_COUNT_CAP}+").` }),
  })
  .meta({ id: "NotificationUnreadCount" });

export const readAllResult = z
  .object({ marked: z.number().int().meta({ description: "How many notifications this request marked read." }) })
  .meta({ id: "NotificationReadAllResult" });

export const producerResult = z
  .object({
    type: z.enum(NOTIFICATION_TYPES),
    created: z.number().int().meta({ description: "Notifications this run wrote (0 when an earlier run already wrote them)." }),
  })
  .meta({ id: "NotificationProducerResult" });

export const notificationGroup = z
  .object({
    groupKey: z.string().meta({
      description:
        "What the group gathers: `<type>:<UTC day of createdAt>` for GAME_ALERT, RATING, FOLLOW and FOLLOW_REQUEST, `REACTION:<postId>` for reactions (Mastodon's grouped favourites), `REPOST:<postId>` for reposts, `MENTION:<postId>` for mentions in a post and its comments, `ungrouped-<id>` for the other types. The same key can reappear on the next page: merge by it.",
    }),
    type: z.enum(NOTIFICATION_TYPES),
    notificationsCount: z.number().int().meta({ description: "Notifications of the group on this page." }),
    unreadCount: z.number().int().meta({ description: "Of those, unread." }),
    mostRecentNotificationId: z.string(),
    latestPageNotificationAt: isoDateTime.meta({ description: "createdAt of the group's newest notification on this page." }),
    pageMinId: z.string().meta({ description: "Smallest id of the group on this page." }),
    pageMaxId: z.string().meta({ description: "Greatest id of the group on this page." }),
    notifications: z.array(notification).meta({ description: "The group's notifications on this page, in list order." }),
  })
  .meta({ id: "NotificationGroup" });

export const notificationGroupPage = z
  .object({
    groups: z.array(notificationGroup),
    nextCursor: z.string().optional().meta({ description: "Present only when more notifications remain; the same cursor as GET /api/notifications." }),
  })
  .meta({ id: "NotificationGroupPage" });
