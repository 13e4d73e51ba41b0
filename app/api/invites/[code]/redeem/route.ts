import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { inviteCodeParams, redeemResult } from "@/lib/features/invites/schemas";
import { redeemInvite } from "@/lib/features/invites/service";
import { errors as invitesErrors } from "@/lib/features/invites/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Redeem an invite code",
      description:
        "Records the caller as invited by the code's owner. Each account redeems at most one invite, ever. Retrying with the code already redeemed answers 200 with the first result and `alreadyRedeemed: true`; another code answers 409 INVITE_ALREADY_REDEEMED; the caller's own code 409 INVITE_OWN_CODE; an unknown code 404. The code is case-insensitive. No request body.",
      tags: ["Invites"],
      auth: "bearer",
      params: inviteCodeParams,
      rateLimit: "write",
      response: redeemResult,
      errors: [sharedErrors.NOT_FOUND, invitesErrors.INVITE_OWN_CODE, invitesErrors.INVITE_ALREADY_REDEEMED],
    },
    ({ user, params }) => redeemInvite(db, user.id, params.code),
  ),
});
