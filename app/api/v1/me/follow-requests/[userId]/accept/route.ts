import { db } from "@/lib/db/client";
import { relationship, userRefParams } from "@/lib/core/follows/schemas";
import { acceptFollowRequest } from "@/lib/core/follows/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Accept a follow request",
      description:
        "`{userId}` is the requesting fan's id or `@handle`. The fan's pending request becomes a follow (`followedBy: true`; the counts move with it). Answers the caller's relationship with the fan. 404 when no request from them is pending (already handled, withdrawn, ended by a block, or never made). Rate-limited (policy write).",
      tags: ["Follows"],
      auth: "bearer",
      params: userRefParams,
      rateLimit: "write",
      response: relationship,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => acceptFollowRequest(db, user.id, params.userId),
  ),
});
