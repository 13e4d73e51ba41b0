import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { ticket, ticketIdParams, updateTicketBody } from "@/lib/features/support/schemas";
import { closeTicket, getTicket } from "@/lib/features/support/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Support ticket detail",
      description:
        "One ticket, for its owner or staff (an admin token). Anyone else, a missing id and a well-formed but unknown id all answer 404 NOT_FOUND; an id that is not a UUID is 400.",
      tags: ["Support"],
      auth: "bearer",
      params: ticketIdParams,
      response: ticket,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getTicket(db, user, params.id),
  ),
  PATCH: route(
    {
      summary: "Close a support ticket",
      description:
        'Body `{ status: "closed" }` (the only change allowed here), by the owner or staff. Idempotent. A later message from the owner re-opens the ticket; a staff message sets it to `pending`.',
      tags: ["Support"],
      auth: "bearer",
      params: ticketIdParams,
      body: updateTicketBody,
      rateLimit: "write",
      response: ticket,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => closeTicket(db, user, params.id),
  ),
});
