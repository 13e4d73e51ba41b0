import * as notifications from "@/app/api/notifications/route";
import * as grouped from "@/app/api/notifications/grouped/route";
import * as unreadCount from "@/app/api/notifications/unread-count/route";
import * as readAll from "@/app/api/notifications/read-all/route";
import * as read from "@/app/api/notifications/[notificationId]/read/route";
import * as archive from "@/app/api/notifications/[notificationId]/archive/route";
import * as cronGameAlerts from "@/app/api/cron/notifications-game-alerts/route";
import * as cronRatingPrompts from "@/app/api/cron/notifications-rating-prompts/route";
import * as cronMilestones from "@/app/api/cron/notifications-milestones/route";

// The notifications inbox; internal: the producer crons.
export const routes = {
  "/api/notifications": notifications,
  "/api/notifications/grouped": grouped,
  "/api/notifications/unread-count": unreadCount,
  "/api/notifications/read-all": readAll,
  "/api/notifications/{notificationId}/read": read,
  "/api/notifications/{notificationId}/archive": archive,
};

export const internalRoutes = {
  "/api/cron/notifications-game-alerts": cronGameAlerts,
  "/api/cron/notifications-rating-prompts": cronRatingPrompts,
  "/api/cron/notifications-milestones": cronMilestones,
};
