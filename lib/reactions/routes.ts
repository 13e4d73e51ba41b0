import * as reaction from "@/app/api/locker-room/[postId]/reaction/route";
import * as reactions from "@/app/api/locker-room/[postId]/reactions/route";

// Reactions to locker-room posts.
export const routes = {
  "/api/locker-room/{postId}/reaction": reaction,
  "/api/locker-room/{postId}/reactions": reactions,
};

export const internalRoutes = {};
