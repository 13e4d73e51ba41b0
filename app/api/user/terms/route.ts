import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { acceptTerms, getCurrentTerms } from "@/lib/core/users/service";
import { currentTerms, termsAccepted, termsBody } from "@/lib/core/users/schemas";
import { errors as usersErrors } from "@/lib/core/users/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Current Terms of Use version",
      description:
        "The version users must accept (POST /api/user/terms) before posting user-generated content, and `url` where it can be read when configured.",
      tags: ["Users"],
      auth: "public",
      response: currentTerms,
    },
    async () => getCurrentTerms(),
  ),
  POST: route(
    {
      summary: "Accept the Terms of Use",
      description:
        "Body `{ version }`, which must equal the current version: sets the caller's ugcTermsVersion and acceptance time (re-accepting the same version keeps the first time). Any other version is 409 TERMS_VERSION_MISMATCH, whose message names the current version; nothing changes.",
      tags: ["Users"],
      auth: "bearer",
      body: termsBody,
      rateLimit: "write",
      response: termsAccepted,
      errors: [usersErrors.TERMS_VERSION_MISMATCH],
    },
    ({ user, body }) => acceptTerms(db, user.id, body.version),
  ),
});
