import * as comments from "@/app/api/locker-room/[postId]/comments/route";
import * as commentDetail from "@/app/api/locker-room/[postId]/comments/[commentId]/route";
import * as replies from "@/app/api/locker-room/[postId]/comments/[commentId]/replies/route";

// Comments on locker-room posts and their replies.
export const routes = {
  "/api/locker-room/{postId}/comments": comments,
  "/api/locker-room/{postId}/comments/{commentId}": commentDetail,
  "/api/locker-room/{postId}/comments/{commentId}/replies": replies,
};

export const internalRoutes = {};
