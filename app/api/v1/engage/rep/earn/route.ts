import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { earnBody, earnResult } from "@/lib/core/rep/schemas";
import { earn } from "@/lib/core/rep/service";
import { errors as repErrors } from "@/lib/core/rep/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Earn Rep",
      description:
        "Claims client-earnable Rep. The server picks amount and source. The same idempotencyKey never grants twice: a retry replays the first result (`replayed: true`); the same key with a different earnKind or targetId is 409 IDEMPOTENCY_KEY_REUSED. Arena check-in, daily-quest completion and game ratings are awarded by the server and answer 403 EARN_KIND_SERVER_AWARDED. " +
        "Some kinds are granted only when the server sees their condition on the caller's account at claim time, else 409 EARN_CONDITION_NOT_MET and nothing is written: `profile_completed` needs a handle, a display name and an avatar (uploaded or from the identity provider); `notifications_enabled` needs at least one of the notification settings notifyTeams, notifyMilestones, notifyCommunity on. " +
        "Both are also awarded by the server, once ever and under the same grant, from the write that meets them: PATCH /api/user/profile leaving the profile complete, PATCH /api/user/settings setting a notification setting to true. Clients need not claim them; a claim after such an award is 409 ALREADY_EARNED.",
      tags: ["Rep"],
      auth: "bearer",
      body: earnBody,
      rateLimit: "earn",
      response: earnResult,
      errors: [repErrors.EARN_KIND_SERVER_AWARDED, repErrors.ALREADY_EARNED, repErrors.EARN_CONDITION_NOT_MET, sharedErrors.IDEMPOTENCY_KEY_REUSED],
    },
    ({ user, body }) => earn(db, user.id, body),
  ),
});
