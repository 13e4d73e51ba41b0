import * as myInvite from "@/app/api/invites/me/route";
import * as invite from "@/app/api/invites/[code]/route";
import * as redeemInvite from "@/app/api/invites/[code]/redeem/route";
import * as supportTickets from "@/app/api/user/support/tickets/route";
import * as supportTicket from "@/app/api/user/support/tickets/[id]/route";
import * as supportMessages from "@/app/api/user/support/tickets/[id]/messages/route";

export default {
  "/api/invites/me": myInvite,
  "/api/invites/{code}": invite,
  "/api/invites/{code}/redeem": redeemInvite,
  "/api/user/support/tickets": supportTickets,
  "/api/user/support/tickets/{id}": supportTicket,
  "/api/user/support/tickets/{id}/messages": supportMessages,
};
