import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { inviteCodeParams, invitePreview } from "@/lib/features/invites/schemas";
import { getInvitePreview } from "@/lib/features/invites/queries";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Look up an invite code",
      description:
        "Public preview for an invite link: the inviter's handle, display name and avatar, nothing more. The code is case-insensitive; a malformed code is 400 and an unknown one 404. Rate-limited per client address (policy `public`) to resist guessing.",
      tags: ["Invites"],
      auth: "public",
      params: inviteCodeParams,
      rateLimit: "public",
      response: invitePreview,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getInvitePreview(db, params.code),
  ),
});
