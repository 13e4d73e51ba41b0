import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getProfile } from "@/lib/core/users/queries";
import { updateProfile } from "@/lib/core/users/service";
import { profile, profilePatch } from "@/lib/core/users/schemas";
import { errors as usersErrors } from "@/lib/core/users/errors";

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
        "`handle`: 3..30 of [A-Za-z0-9_], unique case-insensitively (changing only the case of your own handle is allowed); a handle another user holds, or a reserved one, is 409 USERNAME_TAKEN. Reserved: staff-like words (admin, support, staff, moderator, official, …) compared after folding case, look-alike digits (0→o, 1→i/l, 3→e, 4→a, 5→s, 7→t, 8→b), underscores and trailing digits (so admin_, support1 and 0fficial are reserved), and handles starting with admin, moderator or official; keeping the handle you already hold is always allowed. Of two users racing for one handle exactly one wins. " +
        '`displayName`: trimmed, 1..50, one line; control characters and invisible formatting characters (Unicode Cf, Zl, Zp: bidi controls, zero-width characters) are 400 naming body.displayName. `bio`: trimmed, 0..280, "" or null clears. ' +
        "`favoriteTeamIds`: replaces the list in the order given; unique ids of existing, non-archived teams (400 VALIDATION_ERROR naming each bad index, e.g. body.favoriteTeamIds.2); at most 5 non-official teams, official teams not counting (409 FAVORITE_TEAMS_LIMIT). " +
        "An empty body object or an unknown field is 400. " +
        "A write that leaves the profile complete (a handle, a display name and an avatar, uploaded or from the identity provider) awards the `profile_completed` Rep in the same transaction, once ever: it shows in GET /api/v1/engage/rep/ledger, and a later claim through POST /api/v1/engage/rep/earn is 409 ALREADY_EARNED.",
      tags: ["Users"],
      auth: "bearer",
      body: profilePatch,
      rateLimit: "write",
      response: profile,
      errors: [usersErrors.USERNAME_TAKEN, usersErrors.FAVORITE_TEAMS_LIMIT],
    },
    ({ user, body }) => updateProfile(db, user.id, body),
  ),
});
