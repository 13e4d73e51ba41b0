import * as reportPost from "@/app/api/locker-room/[postId]/report/route";
import * as reportComment from "@/app/api/locker-room/[postId]/comments/[commentId]/report/route";
import * as queue from "@/app/api/admin/moderation/queue/route";
import * as reports from "@/app/api/admin/moderation/reports/route";
import * as hidePost from "@/app/api/admin/moderation/posts/[postId]/hide/route";
import * as restorePost from "@/app/api/admin/moderation/posts/[postId]/restore/route";
import * as hideComment from "@/app/api/admin/moderation/comments/[commentId]/hide/route";
import * as restoreComment from "@/app/api/admin/moderation/comments/[commentId]/restore/route";
import * as dismiss from "@/app/api/admin/moderation/dismiss/route";
import * as suspensions from "@/app/api/admin/moderation/suspensions/route";
import * as lift from "@/app/api/admin/moderation/suspensions/[suspensionId]/lift/route";

// Moderation: reporting posts and comments is public contract; the staff queue, hiding and suspensions are internal.
export const routes = {
  "/api/locker-room/{postId}/report": reportPost,
  "/api/locker-room/{postId}/comments/{commentId}/report": reportComment,
};

export const internalRoutes = {
  "/api/admin/moderation/queue": queue,
  "/api/admin/moderation/reports": reports,
  "/api/admin/moderation/posts/{postId}/hide": hidePost,
  "/api/admin/moderation/posts/{postId}/restore": restorePost,
  "/api/admin/moderation/comments/{commentId}/hide": hideComment,
  "/api/admin/moderation/comments/{commentId}/restore": restoreComment,
  "/api/admin/moderation/dismiss": dismiss,
  "/api/admin/moderation/suspensions": suspensions,
  "/api/admin/moderation/suspensions/{suspensionId}/lift": lift,
};
