import { z } from "zod";
import { boolQuery, cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pollResult } from "../polls/schemas";
import { teamSummary } from "../../core/teams/schemas";
import { COMMENT_POLICIES } from "./sharing";

// Limits of a post (README "Locker room"), as Mastodon's validators set them where it has one.
export const CONTENT_MAX = 2_000;
export const MEDIA_MAX = 4;
export const ALT_MAX = 1_500;
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 5;
export const POLL_OPTION_MAX = 100;
export const POLL_MIN_SECONDS = 300;
export const POLL_MAX_SECONDS = 31 * 24 * 3600;
export const SCHEDULE_MAX_DAYS = 90;
export const EDIT_WINDOW_MINUTES = 60;
export const LINEUP_MAX_SLOTS = 30;

const uuid = (name: string) => uuidString(`${name} (UUID).`, `${name} must be a UUID`);

const teamId = z.string().min(1).max(64);

const media = z.strictObject({
  uploadId: uuid("uploadId").meta({
    description: "A pending locker-media upload of the caller (POST /api/upload/locker-media, or a completed direct upload).",
  }),
  alt: z
    .string()
    .max(ALT_MAX)
    .optional()
    .meta({ description: `Alt text for screen readers (at most ${ALT_MAX} characters).` }),
});

const poll = z
  .strictObject({
    options: z
      .array(z.string().trim().min(1, "A poll option cannot be empty").max(POLL_OPTION_MAX))
      .min(POLL_OPTIONS_MIN)
      .max(POLL_OPTIONS_MAX)
      .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, "Poll options must be distinct")
      .meta({ description: `${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} distinct options (case-insensitively), each 1..${POLL_OPTION_MAX} characters.` }),
    expiresIn: z
      .number()
      .int()
      .min(POLL_MIN_SECONDS)
      .max(POLL_MAX_SECONDS)
      .meta({ description: `Seconds the poll stays open from the post's publication (${POLL_MIN_SECONDS} to ${POLL_MAX_SECONDS}: 5 minutes to 31 days).` }),
    multiple: z.boolean().default(false).meta({ description: "Whether a voter may choose several options." }),
  })
  .meta({ id: "PostPollInput" });

const collectible = z
  .strictObject({
    type: z.enum(["player", "team"]),
    id: z.string().min(1).max(64),
  })
  .meta({
    id: "PostCollectibleInput",
    description:
      "What the post shows as a collectible card: a player or a team of the synced data (checked to exist). Marketplace items (editions with serial numbers) come with the collectibles economy and will be accepted as further types.",
  });

const lineup = z
  .strictObject({
    presetKey: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "presetKey: lower-case letters, digits and dashes, at most 40"),
    assignments: z
      .record(z.string().min(1).max(40), z.string().max(100).nullable())
      .refine((a) => Object.keys(a).length <= LINEUP_MAX_SLOTS, `At most ${LINEUP_MAX_SLOTS} assignments`),
    faces: z.array(z.string().max(500)).max(LINEUP_MAX_SLOTS),
  })
  .meta({
    id: "PostLineupInput",
    description: `A formation-builder lineup, stored and answered exactly as given: a preset key, slot → player assignments (at most ${LINEUP_MAX_SLOTS}) and face image references.`,
  });

export const createPostBody = z
  .strictObject({
    content: z
      .string()
      .max(CONTENT_MAX)
      .default("")
      .meta({
        description: `The text (at most ${CONTENT_MAX} characters). May be empty only when media, a poll, a collectible or a lineup is attached.`,
      }),
    imageUrl: z
      .url({ protocol: /^https$/, error: "imageUrl must be an https URL" })
      .max(2048)
      .optional(),
    teamId: teamId.optional().meta({ description: "The about-tag team." }),
    authorTeamId: teamId.optional().meta({ description: "Post as this team (its staff accounts and staff only: 403 CANNOT_POST_AS_TEAM)." }),
    postAsTeamId: teamId.optional().meta({ description: "Native clients' alias of authorTeamId; both given and different is 400." }),
    scheduledFor: z.iso
      .datetime({ offset: true, error: "scheduledFor must be an ISO 8601 date-time" })
      .optional()
      .meta({ description: `Publish at this time: in the future, at most ${SCHEDULE_MAX_DAYS} days ahead.` }),
    media: z
      .array(media)
      .max(MEDIA_MAX)
      .optional()
      .meta({ description: `Up to ${MEDIA_MAX} images, in order.` }),
    poll: poll.optional(),
    collectible: collectible.optional(),
    lineup: lineup.optional(),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, "language must be an ISO 639-1 code: two lower-case letters, e.g. en, de")
      .optional()
      .meta({
        description:
          "The post's language (ISO 639-1): search stems its words by that language's configuration (lib/search). Omitted: English stemming; its exact words are always searchable.",
      }),
    visibility: z.enum(["public", "private"]).default("public").meta({
      description:
        "public: everyone, signed in or not. private: the author and the fans who follow or joined the post's team (teamId or authorTeamId); a private post needs a team.",
    }),
    quotedPostId: uuid("quotedPostId").optional().meta({
      description:
        "Quote this post: a published public post the caller may see (else 404, or 409 POST_NOT_SHAREABLE for a private or scheduled one). The quote's text may then be empty; a quote cannot be scheduled.",
    }),
  })
  .superRefine((b, ctx) => {
    if (b.authorTeamId && b.postAsTeamId && b.authorTeamId !== b.postAsTeamId) {
      ctx.addIssue({ code: "custom", path: ["postAsTeamId"], message: "authorTeamId and postAsTeamId name different teams: send one" });
    }
    const attached = (b.media?.length ?? 0) > 0 || b.poll || b.collectible || b.lineup || b.quotedPostId;
    if (b.content.trim() === "" && !attached) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "content may be empty only when media, a poll, a collectible or a lineup is attached" });
    }
    if (b.media && new Set(b.media.map((m) => m.uploadId)).size !== b.media.length) {
      ctx.addIssue({ code: "custom", path: ["media"], message: "The same upload is attached twice" });
    }
    if (b.quotedPostId && b.scheduledFor) ctx.addIssue({ code: "custom", path: ["scheduledFor"], message: "A quote cannot be scheduled" });
    if (b.visibility === "private" && !b.teamId && !b.authorTeamId && !b.postAsTeamId) {
      ctx.addIssue({ code: "custom", path: ["visibility"], message: "A private post is for a team's fans: give teamId or authorTeamId" });
    }
  })
  .meta({ id: "PostCreate" });
export type CreatePostInput = z.infer<typeof createPostBody>;

export const postIdParams = z.strictObject({ postId: uuid("postId").meta({ description: "Post id (UUID)." }) });

export const feedQuery = z.strictObject({
  teamId: teamId.optional().meta({ description: "Posts about this team or posted as it." }),
  authorId: uuid("authorId").optional().meta({ description: "Posts by this user." }),
  following: boolQuery("true: only posts about or by teams the caller follows, and posts by fans the caller follows (signed in only)."),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});

export const editPostBody = z
  .strictObject({
    content: z
      .string()
      .max(CONTENT_MAX)
      .meta({ description: `The new text (at most ${CONTENT_MAX} characters).` }),
  })
  .meta({ id: "PostEdit" });

export const rescheduleBody = z
  .strictObject({
    scheduledFor: z.iso.datetime({ offset: true, error: "scheduledFor must be an ISO 8601 date-time" }).meta({
      description: `The new publish time: in the future, at most ${SCHEDULE_MAX_DAYS} days ahead.`,
    }),
  })
  .meta({ id: "PostReschedule" });

export const pageQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

const authorSummary = z
  .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
  .meta({ id: "PostAuthor" });

// Reply controls and quotes on a post (sharing.ts).
const postMedia = z.object({
  uploadId: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  thumbhash: z.string(),
  alt: z.string().nullable(),
});

export const interactionPolicy = z
  .object({
    comments: z.enum(COMMENT_POLICIES).meta({
      description:
        "Who may comment (and reply): everyone; followers (fans who follow the author; for a team's post, the team's followers); team_fans (fans who follow or joined the post's team); nobody. The author, and a team's staff on its posts, always may.",
    }),
  })
  .meta({ id: "PostInteractionPolicy" });

const quotedPostEmbed = z
  .object({
    id: z.string(),
    unavailable: z.literal(false),
    detached: z.literal(false),
    author: z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() }),
    authorTeam: teamSummary.nullable(),
    team: teamSummary.nullable(),
    content: z.string(),
    imageUrl: z.string().nullable(),
    media: z.array(postMedia),
    visibility: z.enum(["public", "private"]),
    publishAt: isoDateTime,
    editedAt: isoDateTime.nullable(),
  })
  .meta({ id: "QuotedPost", description: "The quoted post, as the caller may see it." });

const quotedPostUnavailable = z
  .object({
    id: z.string().meta({ description: "The quoted post's id." }),
    unavailable: z.literal(true),
    detached: z.boolean().meta({
      description: "True when the quoted post's author detached this quote; false when the caller may not see the quoted post (deleted, hidden, blocked).",
    }),
  })
  .meta({ id: "QuotedPostUnavailable", description: "A quote whose quoted post the caller may not see, or whose author detached it." });

export const post = z
  .object({
    id: z.string(),
    author: authorSummary.meta({ description: "The user who wrote it (when posted as a team, show authorTeam instead)." }),
    authorTeam: teamSummary.nullable().meta({ description: "The team it is posted as, or null." }),
    team: teamSummary.nullable().meta({ description: "The about-tag team, or null." }),
    content: z.string(),
    imageUrl: z.string().nullable(),
    media: z.array(postMedia),
    poll: pollResult.nullable().meta({ description: "Counts are null until the caller voted or the poll closed (the author always sees them)." }),
    collectible: collectible.nullable(),
    lineup: lineup.nullable(),
    visibility: z.enum(["public", "private"]),
    publishAt: isoDateTime.meta({ description: "When the post appears in the feed (its creation, or scheduledFor)." }),
    scheduled: z.boolean(),
    createdAt: isoDateTime,
    editedAt: isoDateTime.nullable().meta({ description: "The last edit; null if never edited (GET .../edits lists the earlier versions)." }),
    deletedAt: isoDateTime.nullable().meta({ description: "Staff only see deleted posts; null for everyone else." }),
    hiddenAt: isoDateTime.nullable().meta({ description: "Staff only see hidden posts; null for everyone else." }),
    counts: z.object({
      comments: z.number().int(),
      reactions: z.record(z.string(), z.number().int()).meta({ description: "Reactions per kind (kinds without any are left out)." }),
      reposts: z.number().int().meta({ description: "Fans who reposted it." }),
      quotes: z.number().int().meta({ description: "Posts quoting it, neither deleted, hidden nor detached." }),
    }),
    interactionPolicy,
    quotedPost: z.union([quotedPostEmbed, quotedPostUnavailable]).nullable().meta({
      description: "For a quote, the quoted post (or `{ id, unavailable: true, detached }` when the caller may not see it or it was detached); null otherwise.",
    }),
    viewer: z.object({
      reaction: z.string().nullable().meta({ description: "The caller's reaction kind, or null (always null when signed out)." }),
      canEdit: z.boolean(),
      canDelete: z.boolean(),
      canComment: z.boolean().meta({ description: "The interaction policy lets the caller comment (false signed out)." }),
      reposted: z.boolean().meta({ description: "The caller reposted it." }),
    }),
  })
  .meta({ id: "Post" });

export const postPage = z
  .object({
    posts: z.array(post),
    nextCursor: z.string().optional().meta({ description: "Present only when more posts remain." }),
  })
  .meta({ id: "PostPage" });

export const postEditsPage = z
  .object({
    edits: z.array(z.object({ id: z.string(), content: z.string().meta({ description: "The text this edit replaced." }), editedAt: isoDateTime })),
    nextCursor: z.string().optional(),
  })
  .meta({ id: "PostEditPage" });

export const deletedPost = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "PostDeleted" });

export const publishResult = z
  .object({ published: z.number().int().meta({ description: "Scheduled posts whose publication this run announced." }) })
  .meta({ id: "PostPublishResult" });

export const postMuteState = z
  .object({
    postId: z.string(),
    muted: z.boolean().meta({ description: "While true, no REPLY or REACTION notification about this post reaches the caller." }),
  })
  .meta({ id: "PostMute" });

export const bookmarkState = z
  .object({
    postId: z.string(),
    bookmarked: z.boolean(),
    bookmarkedAt: isoDateTime.nullable().meta({ description: "When the caller first bookmarked the post (a repeated PUT keeps it); null once removed." }),
  })
  .meta({ id: "PostBookmark" });

export const bookmarkPage = z
  .object({
    bookmarks: z.array(
      post.extend({ bookmarkedAt: isoDateTime.meta({ description: "When the caller bookmarked the post (the list order)." }) }).meta({ id: "BookmarkedPost" }),
    ),
    nextCursor: z.string().optional().meta({ description: "Present only when more bookmarks remain." }),
  })
  .meta({ id: "BookmarkPage" });

// Pins, reply controls, reposts and quotes (pins.ts, policy.ts, reposts.ts).

export const pinState = z
  .object({
    postId: z.string(),
    pinned: z.boolean(),
    pinnedAt: isoDateTime.nullable().meta({ description: "When the post was pinned (a repeated PUT keeps it); null once unpinned." }),
  })
  .meta({ id: "PostPin" });

export const pinList = z
  .object({
    pins: z
      .array(post.extend({ pinnedAt: isoDateTime }).meta({ id: "PinnedPost" }))
      .meta({ description: "At most 3, newest pin first; only the pinned posts the caller may see." }),
  })
  .meta({ id: "PinList" });

export const interactionPolicyBody = z.strictObject({ comments: interactionPolicy.shape.comments }).meta({ id: "PostInteractionPolicyPut" });

export const repostState = z
  .object({
    postId: z.string(),
    reposted: z.boolean(),
    repostedAt: isoDateTime.nullable().meta({ description: "When the caller reposted it (a repeated PUT keeps it); null once removed." }),
    repostCount: z.number().int().nullable().meta({ description: "The post's reposts now; null (after DELETE) when the caller may no longer see the post." }),
  })
  .meta({ id: "PostRepost" });

export const repostPage = z
  .object({
    reposts: z.array(post.extend({ repostedAt: isoDateTime.meta({ description: "When the fan reposted it (the list order)." }) }).meta({ id: "RepostedPost" })),
    nextCursor: z.string().optional().meta({ description: "Present only when more reposts remain." }),
  })
  .meta({ id: "RepostPage" });

export const quoteParams = z.strictObject({
  postId: uuid("postId").meta({ description: "The quoted post's id (UUID)." }),
  quotePostId: uuid("quotePostId").meta({ description: "The quote's id (UUID): a post quoting postId." }),
});

export const quoteDetached = z
  .object({ postId: z.string(), quotePostId: z.string(), detached: z.literal(true), detachedAt: isoDateTime })
  .meta({ id: "QuoteDetached" });
