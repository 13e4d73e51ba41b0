import * as myInvite from "@/app/api/invites/me/route";
import * as invite from "@/app/api/invites/[code]/route";
import * as redeemInvite from "@/app/api/invites/[code]/redeem/route";

// Invite codes.
export const routes = {
  "/api/invites/me": myInvite,
  "/api/invites/{code}": invite,
  "/api/invites/{code}/redeem": redeemInvite,
};

export const internalRoutes = {};
