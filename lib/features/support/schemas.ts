import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, UUID_PATTERN } from "../../kernel/schemas";

export const SUBJECT_MIN = 3;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 5000;
/** Large enough for 5,000 characters even when every one arrives as a JSON \u escape. */
export const SUPPORT_BODY_LIMIT = 64 * 1024;

const subject = z
  .string()
  .trim()
  .min(SUBJECT_MIN)
  .max(SUBJECT_MAX)
  .refine((s) => !/[\r\n]/.test(s), "The subject must be a single line")
  .meta({ description: `Trimmed, ${SUBJECT_MIN}..${SUBJECT_MAX} characters, one line.` });

const messageBody = z
  .string()
  .trim()
  .min(1)
  .max(BODY_MAX)
  .meta({ description: `Trimmed, 1..${BODY_MAX} characters.` });

export const ticketStatus = z.enum(["open", "pending", "closed"]).meta({
  id: "SupportTicketStatus",
  description: "open: waiting for staff. pending: staff answered, waiting for the fan. closed: resolved (a fan reply re-opens it).",
});

export const ticketIdParams = z.strictObject({
  id: z
    .string()
    .regex(UUID_PATTERN, "Must be a UUID")
    .transform((id) => id.toLowerCase())
    .meta({ description: "Ticket id (UUID)." }),
});

export const createTicketBody = z.strictObject({ subject, message: messageBody }).meta({ id: "SupportTicketCreate" });
export const postMessageBody = z.strictObject({ body: messageBody }).meta({ id: "SupportMessageCreate" });
export const updateTicketBody = z
  .strictObject({ status: z.literal("closed").meta({ description: "Only closing is possible here; reply to re-open." }) })
  .meta({ id: "SupportTicketUpdate" });

export const ticketListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });
export const messageListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 50) });

export const ticket = z
  .object({
    id: z.string(),
    subject: z.string(),
    status: ticketStatus,
    messageCount: z.number().int(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    lastMessageAt: isoDateTime.meta({ description: "When the newest message was posted; lists sort on it." }),
  })
  .meta({ id: "SupportTicket" });

export const message = z
  .object({
    id: z.string(),
    ticketId: z.string(),
    body: z.string(),
    fromStaff: z.boolean().meta({ description: "True for a staff reply; staff identities are not disclosed." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "SupportMessage" });

export const ticketPage = z
  .object({
    tickets: z.array(ticket),
    nextCursor: z.string().optional().meta({ description: "Present only when more tickets remain." }),
  })
  .meta({ id: "SupportTicketPage" });

export const messagePage = z
  .object({
    messages: z.array(message),
    nextCursor: z.string().optional().meta({ description: "Present only when more messages remain." }),
  })
  .meta({ id: "SupportMessagePage" });

export const ticketWithMessage = z.object({ ticket, message }).meta({ id: "SupportTicketWithMessage" });

export type CreateTicketInput = z.infer<typeof createTicketBody>;
