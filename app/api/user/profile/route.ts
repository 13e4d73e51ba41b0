import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getProfile, updateProfile } from "@/lib/users/profile";
import { profile, profilePatch } from "@/lib/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My profile",
      description:
        "The caller's own profile: handle, display name, bio, email, avatar and banner (with thumbhashes), favorite teams in display order (each id with a team summary, or `team: null` when no team row exists), private flag, onboarding and Terms of Use state (`ugcTermsVersion`, `currentTermsVersion`, `termsAccepted`).",
      tags: ["Users"],
      auth: "bearer",
      response: profile,
    },
    ({ user }) => getProfile(db, user.id),
  ),
  PATCH: route(
    {
      summary: "Update my profile",
      description:
        "Only the fields sent change, all in one transaction; answers the updated profile. " +
        "`handle`: 3..30 of [A-Za-z0-9_], unique case-insensitively (changing only the case of your own handle is allowed); a handle another user holds, or a reserved one (admin, support, staff, …), is 409 USERNAME_TAKEN. Of two users racing for one handle exactly one wins. " +
        "`displayName`: trimmed, 1..50. `bio`: trimmed, 0..280, \"\" or null clears. " +
        "`favoriteTeamIds`: replaces the list in the order given; unique ids of existing, non-archived teams (400 VALIDATION_ERROR naming each bad index, e.g. body.favoriteTeamIds.2); at most 5 non-official teams, official teams not counting (409 FAVORITE_TEAMS_LIMIT). " +
        "An empty body object or an unknown field is 400.",
      tags: ["Users"],
      auth: "bearer",
      body: profilePatch,
      rateLimit: "write",
      response: profile,
      errors: ["USERNAME_TAKEN", "FAVORITE_TEAMS_LIMIT"],
    },
    ({ user, body }) => updateProfile(db, user.id, body),
  ),
});
