import * as posts from "@/app/api/locker-room/route";
import * as postDetail from "@/app/api/locker-room/[postId]/route";
import * as edits from "@/app/api/locker-room/[postId]/edits/route";
import * as scheduled from "@/app/api/locker-room/scheduled/route";
import * as scheduledPost from "@/app/api/locker-room/scheduled/[postId]/route";
import * as cronPublish from "@/app/api/cron/locker-room-publish/route";

// Locker-room posts and the feed; internal: the publish cron.
export const routes = {
  "/api/locker-room": posts,
  "/api/locker-room/{postId}": postDetail,
  "/api/locker-room/{postId}/edits": edits,
  "/api/locker-room/scheduled": scheduled,
  "/api/locker-room/scheduled/{postId}": scheduledPost,
};

export const internalRoutes = {
  "/api/cron/locker-room-publish": cronPublish,
};
