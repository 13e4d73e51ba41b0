import * as uploadProfile from "@/app/api/upload/profile/route";
import * as uploadBanner from "@/app/api/upload/banner/route";
import * as uploadBinderCover from "@/app/api/upload/binder-cover/route";
import * as uploadLockerMedia from "@/app/api/upload/locker-media/route";
import * as directStart from "@/app/api/upload/locker-media/direct/route";
import * as directPut from "@/app/api/upload/locker-media/direct/[uploadId]/route";
import * as directComplete from "@/app/api/upload/locker-media/direct/[uploadId]/complete/route";
import * as imageProxy from "@/app/api/image-proxy/route";
import * as cronUploadsSweep from "@/app/api/cron/uploads-sweep/route";

// Uploads and the image proxy; internal: the cron sweep of unused uploads.
export const routes = {
  "/api/upload/profile": uploadProfile,
  "/api/upload/banner": uploadBanner,
  "/api/upload/binder-cover": uploadBinderCover,
  "/api/upload/locker-media": uploadLockerMedia,
  "/api/upload/locker-media/direct": directStart,
  "/api/upload/locker-media/direct/{uploadId}": directPut,
  "/api/upload/locker-media/direct/{uploadId}/complete": directComplete,
  "/api/image-proxy": imageProxy,
};

export const internalRoutes = {
  "/api/cron/uploads-sweep": cronUploadsSweep,
};
