import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { unblockUser } from "@/lib/core/users/service";
import { blockedUserParams, unblockResult } from "@/lib/core/users/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Unblock a user",
      description: "Idempotent: answers `{ blocked: false, userId }` whether or not the user was blocked (or exists). A userId that is not a UUID is 400.",
      tags: ["Users"],
      auth: "bearer",
      params: blockedUserParams,
      rateLimit: "write",
      response: unblockResult,
    },
    ({ user, params }) => unblockUser(db, user.id, params.userId),
  ),
});
