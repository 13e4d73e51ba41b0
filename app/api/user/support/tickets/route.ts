import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createTicketBody, SUPPORT_BODY_LIMIT, ticketListQuery, ticketPage, ticketWithMessage } from "@/lib/features/support/schemas";
import { createTicket, listTickets } from "@/lib/features/support/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My support tickets",
      description:
        "The caller's own tickets, newest activity first (lastMessageAt desc, then id desc), keyset-paginated: `limit` 1..50 (default 20); `nextCursor` is present only when more tickets remain.",
      tags: ["Support"],
      auth: "bearer",
      query: ticketListQuery,
      response: ticketPage,
    },
    ({ user, query }) => listTickets(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Open a support ticket",
      description:
        "Creates a ticket (status `open`) and its first message in one transaction; answers 201 with both. `subject` is trimmed, 3..200 characters on one line; `message` is trimmed, 1..5000 characters. Unknown fields are rejected.",
      tags: ["Support"],
      auth: "bearer",
      body: createTicketBody,
      bodyLimit: SUPPORT_BODY_LIMIT,
      rateLimit: "write",
      status: 201,
      response: ticketWithMessage,
    },
    ({ user, body }) => createTicket(db, user.id, body),
  ),
});
