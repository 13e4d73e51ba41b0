import * as tickets from "@/app/api/user/support/tickets/route";
import * as ticket from "@/app/api/user/support/tickets/[id]/route";
import * as messages from "@/app/api/user/support/tickets/[id]/messages/route";

// Support tickets.
export const routes = {
  "/api/user/support/tickets": tickets,
  "/api/user/support/tickets/{id}": ticket,
  "/api/user/support/tickets/{id}/messages": messages,
};

export const internalRoutes = {};
