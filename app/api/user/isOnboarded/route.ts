import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { isOnboarded } from "@/lib/core/users/service";
import { isOnboardedResult } from "@/lib/core/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Has the caller finished onboarding?",
      description: "True once POST /api/user/onboarding has succeeded for this user.",
      tags: ["Users"],
      auth: "bearer",
      response: isOnboardedResult,
    },
    ({ user }) => isOnboarded(db, user.id),
  ),
});
