import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { messageListQuery, messagePage, postMessageBody, SUPPORT_BODY_LIMIT, ticketIdParams, ticketWithMessage } from "@/lib/features/support/schemas";
import { listMessages, postMessage } from "@/lib/features/support/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Support ticket messages",
      description:
        "Oldest first (createdAt asc, then id asc), keyset-paginated: `limit` 1..100 (default 50); `nextCursor` is present only when more messages remain. Owner or staff only; anyone else gets 404 NOT_FOUND.",
      tags: ["Support"],
      auth: "bearer",
      params: ticketIdParams,
      query: messageListQuery,
      response: messagePage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listMessages(db, user, params.id, query),
  ),
  POST: route(
    {
      summary: "Reply to a support ticket",
      description:
        "Adds a message (`body` trimmed, 1..5000 characters) and moves the ticket's lastMessageAt to it; answers 201 with the message and the updated ticket. The owner's message sets status `open`, which re-opens a closed ticket. A staff message (admin token on another user's ticket) has `fromStaff: true` and sets status `pending`. Anyone else gets 404 NOT_FOUND.",
      tags: ["Support"],
      auth: "bearer",
      params: ticketIdParams,
      body: postMessageBody,
      bodyLimit: SUPPORT_BODY_LIMIT,
      rateLimit: "write",
      status: 201,
      response: ticketWithMessage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body }) => postMessage(db, user, params.id, body.body),
  ),
});
