import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as progressErrors } from "@/lib/features/progress/errors";
import { FEATURED_MAX, featuredPut, userBadges } from "@/lib/features/progress/schemas";
import { setFeatured } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Feature my badges",
      description: `Replaces the badges the caller features: up to ${FEATURED_MAX} badges they hold, in order ([] features none). A badge not held is 409 BADGE_NOT_OWNED naming it; nothing changes. Answers the caller's badges as GET /api/v1/users/{userId}/badges does.`,
      tags: ["Follows"],
      auth: "bearer",
      body: featuredPut,
      rateLimit: "write",
      response: userBadges,
      errors: [progressErrors.BADGE_NOT_OWNED],
    },
    ({ user, body }) => setFeatured(db, user.id, body.badgeIds),
  ),
});
