import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { completeOnboarding } from "@/lib/features/onboarding/service";
import { onboardingBody, onboardingResult } from "@/lib/core/users/schemas";
import { errors as usersErrors } from "@/lib/core/users/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Complete onboarding",
      description:
        "Applies the optional profile input (handle, displayName, bio, favoriteTeamIds: the same rules and errors as PATCH /api/user/profile) and the optional `acceptTermsVersion` in one transaction, sets the onboarded time the first time, then grants the free starter pack once per user. " +
        "`freePackId` is the pack purchase id of that grant; repeating onboarding (also concurrently) returns the same id and never grants twice. When the grant degrades (no active starter pack, or the grant fails) onboarding still succeeds with `freePackId: null` and the profile changes stay applied; a later call retries the grant. " +
        "The body may be empty or `{}`. A validation, handle, favorite-teams or terms error changes nothing.",
      tags: ["Users"],
      auth: "bearer",
      body: onboardingBody,
      bodyRequired: false,
      rateLimit: "write",
      response: onboardingResult,
      errors: [usersErrors.USERNAME_TAKEN, usersErrors.FAVORITE_TEAMS_LIMIT, usersErrors.TERMS_VERSION_MISMATCH],
    },
    ({ user, body }) => completeOnboarding(db, user.id, body ?? {}),
  ),
});
