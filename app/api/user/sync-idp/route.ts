import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { syncFromIdentityProvider } from "@/lib/core/users/service";
import { profile, syncIdpBody } from "@/lib/core/users/schemas";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Sync my profile from the identity provider",
      description:
        "Reads the caller from the identity provider and updates: email (always mirrors the provider), displayName (first + last name, only while none is set), avatarUrl (the provider's image, only while no avatar was uploaded) and idpSyncedAt. Answers the profile. " +
        "404 NOT_FOUND when the provider has no such user; 502 UPSTREAM_ERROR when the provider fails. The body may be empty or `{}`; any field in it is rejected.",
      tags: ["Users"],
      auth: "bearer",
      body: syncIdpBody,
      bodyRequired: false,
      rateLimit: "write",
      response: profile,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.UPSTREAM_ERROR],
    },
    ({ user }) => syncFromIdentityProvider(db, user),
  ),
});
