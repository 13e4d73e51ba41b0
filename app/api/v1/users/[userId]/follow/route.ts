import { db } from "@/lib/db/client";
import { errors as followsErrors } from "@/lib/core/follows/errors";
import { relationship, userRefParams } from "@/lib/core/follows/schemas";
import { follow, unfollow } from "@/lib/core/follows/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Follow a fan",
      description:
        "`{userId}` is the user's id or `@handle`. Follows a public profile (`following: true`; the fan is notified, FOLLOW), or asks to follow a private one (`requested: true`; the fan is notified, FOLLOW_REQUEST, and accepts or rejects it under GET /api/v1/me/follow-requests). " +
        "Idempotent: a follow or request that exists stays as it was and notifies nothing again. Answers the caller's relationship with the fan. " +
        "Yourself: 400 CANNOT_FOLLOW_SELF. A block either way: 403 FOLLOW_BLOCKED. Unknown user: 404. Rate-limited (policy write).",
      tags: ["Follows"],
      auth: "bearer",
      params: userRefParams,
      rateLimit: "write",
      response: relationship,
      errors: [sharedErrors.NOT_FOUND, followsErrors.CANNOT_FOLLOW_SELF, followsErrors.FOLLOW_BLOCKED],
    },
    ({ user, params }) => follow(db, user.id, params.userId),
  ),
  DELETE: route(
    {
      summary: "Unfollow a fan",
      description:
        "Ends the caller's follow of the fan and withdraws a pending follow request. Idempotent: answers the relationship whether or not there was one. Yourself: 400 CANNOT_FOLLOW_SELF. Unknown user: 404. Rate-limited (policy write).",
      tags: ["Follows"],
      auth: "bearer",
      params: userRefParams,
      rateLimit: "write",
      response: relationship,
      errors: [sharedErrors.NOT_FOUND, followsErrors.CANNOT_FOLLOW_SELF],
    },
    ({ user, params }) => unfollow(db, user.id, params.userId),
  ),
});
