import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

// Reports of posts and comments, the staff moderation queue, hiding and restoring, and posting suspensions.

export const REPORT_REASONS = ["spam", "harassment", "hate", "violence", "sexual", "misinformation", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_NOTE_MAX = 1000;
export const HIDE_NOTE_MAX = 500;
export const SUSPENSION_HOURS_MAX = 8760;
export const SUSPENSION_REASON_MAX = 500;
/** How many of a target's most recent open reports the queue shows with it. */
export const QUEUE_LATEST_REPORTS = 3;

const uuid = uuidString;

export const postIdParams = z.strictObject({ postId: uuid("Post id (UUID).") });
export const commentIdParams = z.strictObject({ commentId: uuid("Comment id (UUID).") });
export const postCommentParams = z.strictObject({ postId: uuid("Post id (UUID)."), commentId: uuid("Comment id (UUID) of a comment of that post.") });
export const suspensionIdParams = z.strictObject({ suspensionId: uuid("Suspension id (UUID).") });

export const reportBody = z
  .strictObject({
    reason: z.enum(REPORT_REASONS).meta({ description: `Why: ${REPORT_REASONS.join(", ")}.` }),
    note: z
      .string()
      .trim()
      .max(REPORT_NOTE_MAX)
      .optional()
      .meta({ description: `What staff should know (at most ${REPORT_NOTE_MAX} characters); required when reason is "other".` }),
  })
  .superRefine((b, ctx) => {
    if (b.reason === "other" && !b.note) ctx.addIssue({ code: "custom", path: ["note"], message: 'Required when reason is "other"' });
  })
  .meta({ id: "ReportCreate" });

export const report = z
  .object({
    id: z.string().meta({ description: "UUIDv7." }),
    postId: z.string().nullable().meta({ description: "The reported post; null for a comment report." }),
    commentId: z.string().nullable().meta({ description: "The reported comment; null for a post report." }),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "Report" });

// Staff ---------------------------------------------------------------------------------------------------------

export const staffReport = report
  .extend({
    reporterId: z.string().meta({ description: "The reporting user's id." }),
    resolvedAt: isoDateTime.nullable().meta({ description: "When staff hid the target or dismissed the report; null while open." }),
    resolvedBy: z.string().nullable().meta({ description: "The staff member's identity-provider id." }),
    resolution: z.enum(["hidden", "dismissed"]).nullable(),
  })
  .meta({ id: "StaffReport" });

export const authorSummary = z
  .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
  .meta({ id: "ModerationAuthor" });

export const queueItem = z
  .object({
    target: z
      .object({
        type: z.enum(["post", "comment"]),
        postId: z.string().meta({ description: "The post, or the post the comment is on." }),
        commentId: z.string().nullable(),
      })
      .meta({ description: "What was reported." }),
    content: z
      .object({
        content: z.string(),
        mediaCount: z.number().int().meta({ description: "Attached media (posts; 0 for comments)." }),
        author: authorSummary,
        createdAt: isoDateTime,
        hiddenAt: isoDateTime.nullable(),
        deletedAt: isoDateTime.nullable(),
      })
      .meta({ description: "The target as it is now." }),
    openReports: z.number().int(),
    reasons: z.record(z.string(), z.number().int()).meta({ description: "Open reports per reason (reasons with at least one)." }),
    firstReportedAt: isoDateTime.meta({ description: "The oldest open report (the queue's order)." }),
    lastReportedAt: isoDateTime,
    latestReports: z.array(staffReport).meta({ description: `The ${QUEUE_LATEST_REPORTS} most recent open reports, with their notes.` }),
  })
  .meta({ id: "ModerationQueueItem" });

export const queueQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const queuePage = z
  .object({ items: z.array(queueItem), nextCursor: z.string().optional().meta({ description: "Present only when more targets remain." }) })
  .meta({ id: "ModerationQueuePage" });

export const targetReportsQuery = z
  .strictObject({
    postId: uuid("The post whose reports to list.").optional(),
    commentId: uuid("The comment whose reports to list.").optional(),
    cursor: cursorQuery,
    limit: intQuery(1, 100, 50),
  })
  .superRefine((q, ctx) => {
    if (!q.postId === !q.commentId) ctx.addIssue({ code: "custom", path: ["postId"], message: "Give exactly one of postId and commentId" });
  });

export const targetReportsPage = z
  .object({ reports: z.array(staffReport), nextCursor: z.string().optional().meta({ description: "Present only when more reports remain." }) })
  .meta({ id: "StaffReportPage" });

export const hideBody = z
  .strictObject({
    note: z
      .string()
      .trim()
      .max(HIDE_NOTE_MAX)
      .optional()
      .meta({ description: `Why (at most ${HIDE_NOTE_MAX} characters): written to the server's log with the action.` }),
  })
  .meta({ id: "ModerationHide" });

export const moderationResult = z
  .object({
    postId: z.string(),
    commentId: z.string().nullable(),
    hiddenAt: isoDateTime.nullable().meta({ description: "The target's hidden time after the action; null when visible." }),
    changed: z.boolean().meta({ description: "False when the target was already in that state (the action is idempotent)." }),
    resolvedReports: z.number().int().meta({ description: "Open reports this action resolved." }),
  })
  .meta({ id: "ModerationResult" });

export const dismissBody = z
  .strictObject({
    postId: uuid("Dismiss the open reports of this post.").optional(),
    commentId: uuid("Dismiss the open reports of this comment.").optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.postId === !b.commentId) ctx.addIssue({ code: "custom", path: ["postId"], message: "Give exactly one of postId and commentId" });
  })
  .meta({ id: "ModerationDismiss" });

export const dismissResult = z
  .object({
    postId: z.string().nullable(),
    commentId: z.string().nullable(),
    resolvedReports: z.number().int().meta({ description: "Open reports this action dismissed (0 on a repeat)." }),
  })
  .meta({ id: "ModerationDismissResult" });

export const suspensionBody = z
  .strictObject({
    userId: uuid("The user to suspend from posting and commenting."),
    hours: z
      .number()
      .int()
      .min(1)
      .max(SUSPENSION_HOURS_MAX)
      .meta({ description: `How long, in hours (1..${SUSPENSION_HOURS_MAX}).` }),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(SUSPENSION_REASON_MAX)
      .meta({ description: `Why (1..${SUSPENSION_REASON_MAX} characters); staff only.` }),
  })
  .meta({ id: "SuspensionCreate" });

export const suspension = z
  .object({
    id: z.string(),
    userId: z.string(),
    until: isoDateTime,
    reason: z.string(),
    staffId: z.string().meta({ description: "The staff member's identity-provider id." }),
    createdAt: isoDateTime,
    liftedAt: isoDateTime.nullable(),
    active: z.boolean().meta({ description: "In force now: not lifted and not yet ended." }),
  })
  .meta({ id: "PostingSuspension" });

export const suspensionsQuery = z.strictObject({
  userId: uuid("Whose suspensions."),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});

export const suspensionPage = z
  .object({ suspensions: z.array(suspension), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "PostingSuspensionPage" });

// Reports of users, listings and binders; the caller's reports ---------------------------------------------------

export const REPORT_TARGET_KINDS = ["post", "comment", "user", "listing", "binder"] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];

export const userIdParams = z.strictObject({ userId: uuid("User id (UUID).") });
export const listingIdParams = z.strictObject({ listingId: uuid("Listing id (UUID).") });
export const binderIdParams = z.strictObject({ binderId: uuid("Binder id (UUID).") });

export const accountReport = z
  .object({
    id: z.string().meta({ description: "UUIDv7." }),
    target: z.object({ type: z.enum(REPORT_TARGET_KINDS), id: z.string() }).meta({ description: "What was reported." }),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "TargetReport" });

export const myReport = accountReport
  .extend({
    status: z.enum(["open", "actioned", "dismissed"]).meta({
      description: "open until staff review it; actioned when staff acted on the target; dismissed when they found nothing to act on.",
    }),
    reviewedAt: isoDateTime.nullable().meta({ description: "When staff reviewed it; null while open." }),
  })
  .meta({ id: "MyReport" });

export const myReportsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });

export const myReportsPage = z
  .object({ reports: z.array(myReport), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "MyReportPage" });

// Sanctions and appeals --------------------------------------------------------------------------------------------

export const SANCTION_KINDS = ["posting", "trading", "full"] as const;
export type SanctionKind = (typeof SANCTION_KINDS)[number];
export const ACTION_KINDS = ["posting_suspension", "trading_restriction", "full_suspension", "content_hidden"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const SANCTION_HOURS_MAX = 87_600;
export const APPEAL_TEXT_MAX = 2000;
export const APPEAL_WINDOW_DAYS = 30;
export const SANCTION_HIDE_MAX = 50;

export const actionIdParams = z.strictObject({ actionId: uuid("Moderation action id (UUID).") });
export const appealIdParams = z.strictObject({ appealId: uuid("Appeal id (UUID).") });

export const sanctionBody = z
  .strictObject({
    userId: uuid("The user to sanction."),
    kind: z.enum(SANCTION_KINDS).meta({
      description:
        "posting: no posts or comments; trading: no listing, bidding, offering, buying or accepting offers; full: every signed-in call refused but reading one's moderation actions and appealing.",
    }),
    hours: z
      .number()
      .int()
      .min(1)
      .max(SANCTION_HOURS_MAX)
      .meta({ description: `How long, in hours (1..${SANCTION_HOURS_MAX}).` }),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(SUSPENSION_REASON_MAX)
      .meta({ description: `Why (1..${SUSPENSION_REASON_MAX} characters); the user sees it.` }),
    hidePostIds: z
      .array(uuid("A post of the user's"))
      .max(SANCTION_HIDE_MAX)
      .optional()
      .meta({ description: `Posts of the user's to hide under the same action (at most ${SANCTION_HIDE_MAX}); a granted appeal brings them back.` }),
  })
  .meta({ id: "SanctionCreate" });

export const moderationAction = z
  .object({
    id: z.string(),
    kind: z.enum(ACTION_KINDS),
    reason: z.string(),
    createdAt: isoDateTime,
    endsAt: isoDateTime.nullable().meta({ description: "When the sanction ends; null for hidden content." }),
    liftedAt: isoDateTime.nullable().meta({ description: "When staff or a granted appeal lifted it." }),
    active: z.boolean().meta({ description: "In force now: not lifted and (a sanction) not yet ended." }),
    hiddenPosts: z.array(z.string()).meta({ description: "Posts this action hid that are still hidden by it." }),
    hiddenComments: z.array(z.string()).meta({ description: "Comments this action hid that are still hidden by it." }),
    appealableUntil: isoDateTime.meta({ description: `${APPEAL_WINDOW_DAYS} days after the action.` }),
    appeal: z
      .object({ id: z.string(), status: z.enum(["pending", "granted", "denied"]), createdAt: isoDateTime, decidedAt: isoDateTime.nullable() })
      .nullable(),
  })
  .meta({ id: "ModerationAction" });

export const staffModerationAction = moderationAction
  .extend({
    userId: z.string(),
    staffId: z.string().meta({ description: "Who acted: the staff member's identity-provider id." }),
    teamId: z.string().nullable().meta({ description: "Set when team staff acted; such actions wait for platform staff's review." }),
    liftedBy: z.string().nullable(),
    reviewedAt: isoDateTime.nullable(),
    reviewedBy: z.string().nullable(),
  })
  .meta({ id: "StaffModerationAction" });

export const actionsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });

export const actionsPage = z
  .object({ actions: z.array(moderationAction), nextCursor: z.string().optional().meta({ description: "Present only when more remain." }) })
  .meta({ id: "ModerationActionPage" });

export const appealBody = z
  .strictObject({
    text: z
      .string()
      .trim()
      .min(1)
      .max(APPEAL_TEXT_MAX)
      .meta({ description: `Why the action should be reversed (1..${APPEAL_TEXT_MAX} characters).` }),
  })
  .meta({ id: "AppealCreate" });

export const appeal = z
  .object({
    id: z.string(),
    actionId: z.string(),
    text: z.string(),
    status: z.enum(["pending", "granted", "denied"]),
    createdAt: isoDateTime,
    decidedAt: isoDateTime.nullable(),
  })
  .meta({ id: "Appeal" });

export const appealDecisionBody = z
  .strictObject({
    decision: z.enum(["grant", "deny"]).meta({ description: "grant: the action is lifted and what it hid restored; deny: it stands." }),
    note: z
      .string()
      .trim()
      .max(HIDE_NOTE_MAX)
      .optional()
      .meta({ description: `For the record (at most ${HIDE_NOTE_MAX} characters).` }),
  })
  .meta({ id: "AppealDecision" });

export const staffAppeal = appeal
  .extend({ userId: z.string(), decidedBy: z.string().nullable(), note: z.string().nullable(), action: staffModerationAction })
  .meta({ id: "StaffAppeal" });

export const teamHideResult = z
  .object({
    postId: z.string(),
    commentId: z.string(),
    hiddenAt: isoDateTime,
    changed: z.boolean().meta({ description: "False when the comment was already hidden." }),
    actionId: z.string().nullable().meta({ description: "The moderation action recorded (escalated to platform staff); null when nothing changed." }),
  })
  .meta({ id: "TeamCommentHideResult" });
