import * as item from "@/app/api/v1/binders/[binderId]/items/[collectibleId]/route";
import * as items from "@/app/api/v1/binders/[binderId]/items/route";
import * as binder from "@/app/api/v1/binders/[binderId]/route";
import * as order from "@/app/api/v1/binders/order/route";
import * as binders from "@/app/api/v1/binders/route";
import * as userBinders from "@/app/api/v1/users/[userId]/binders/route";

// Binders: the fans' albums of collectibles (the cover is an upload: POST /api/upload/binder-cover).
export const routes = {
  "/api/v1/binders": binders,
  "/api/v1/binders/order": order,
  "/api/v1/binders/{binderId}": binder,
  "/api/v1/binders/{binderId}/items": items,
  "/api/v1/binders/{binderId}/items/{collectibleId}": item,
  "/api/v1/users/{userId}/binders": userBinders,
};

export const internalRoutes = {};
