import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { mutedUserParams, unmuteResult } from "@/lib/core/mutes/schemas";
import { unmuteUser } from "@/lib/core/mutes/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Unmute an account",
      description:
        "Idempotent: answers `{ muted: false, userId }` whether or not the account was muted (or exists). Its posts, comments and reactions show again; notifications it caused while muted are not sent. A userId that is not a UUID is 400.",
      tags: ["Users"],
      auth: "bearer",
      params: mutedUserParams,
      rateLimit: "write",
      response: unmuteResult,
    },
    ({ user, params }) => unmuteUser(db, user.id, params.userId),
  ),
});
