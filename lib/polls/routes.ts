import * as poll from "@/app/api/locker-room/[postId]/poll/route";
import * as votes from "@/app/api/locker-room/[postId]/poll/votes/route";

// Polls of locker-room posts: results and votes (the poll itself is created with its post).
export const routes = {
  "/api/locker-room/{postId}/poll": poll,
  "/api/locker-room/{postId}/poll/votes": votes,
};

export const internalRoutes = {};
