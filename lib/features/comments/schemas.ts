import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

export const COMMENT_MAX = 1_000;

const uuid = (name: string) => uuidString(`${name} (UUID).`, `${name} must be a UUID`);

export const commentParams = z.strictObject({ postId: uuid("postId"), commentId: uuid("commentId") });

export const commentBody = z
  .strictObject({
    content: z
      .string()
      .trim()
      .min(1, "A comment cannot be empty")
      .max(COMMENT_MAX)
      .meta({ description: `1..${COMMENT_MAX} characters (trimmed).` }),
    parentId: uuid("parentId").optional().meta({ description: "Reply to this top-level comment of the post (replies are one level deep)." }),
  })
  .meta({ id: "CommentCreate" });

export const commentsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const comment = z
  .object({
    id: z.string(),
    postId: z.string(),
    parentId: z.string().nullable(),
    author: z
      .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() })
      .nullable()
      .meta({ description: "Null for a removed comment." }),
    content: z.string().nullable().meta({ description: "Null for a removed comment." }),
    removed: z.boolean().meta({ description: "A deleted or hidden top-level comment still listed because it has replies: shown as a placeholder." }),
    createdAt: isoDateTime,
    replyCount: z.number().int().meta({ description: "Replies neither deleted nor hidden (top-level comments; 0 for replies)." }),
    viewer: z.object({ canDelete: z.boolean() }),
  })
  .meta({ id: "Comment" });

export const commentPage = z
  .object({ comments: z.array(comment), nextCursor: z.string().optional().meta({ description: "Present only when more comments remain." }) })
  .meta({ id: "CommentPage" });

export const deletedComment = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "CommentDeleted" });
