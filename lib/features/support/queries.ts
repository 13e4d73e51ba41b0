import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";

type TicketStatus = "open" | "pending" | "closed";

export interface TicketRow {
  id: string;
  subject: string;
  status: TicketStatus;
  createdAt: Date;
  updatedAt: Date;
  lastMessageAt: Date;
  messageCount: number;
}

export interface MessageRow {
  id: string;
  ticketId: string;
  body: string;
  fromStaff: boolean;
  createdAt: Date;
}

export const toTicket = (t: TicketRow) => ({
  id: t.id,
  subject: t.subject,
  status: t.status,
  messageCount: t.messageCount,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  lastMessageAt: t.lastMessageAt.toISOString(),
});

export const toMessage = (m: MessageRow) => ({
  id: m.id,
  ticketId: m.ticketId,
  body: m.body,
  fromStaff: m.fromStaff,
  createdAt: m.createdAt.toISOString(),
});

export const TICKET_SELECT = {
  id: true,
  userId: true,
  subject: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  lastMessageAt: true,
  _count: { select: { messages: true } },
} as const;

type SelectedTicket = Omit<TicketRow, "messageCount"> & { userId: string; _count: { messages: number } };
export const fromSelected = ({ _count, ...t }: SelectedTicket): TicketRow => ({ ...t, messageCount: _count.messages });

/** A user's tickets, newest activity first (lastMessageAt desc, id desc), after the cursor. */
export function ticketsOf(db: DbTx, userId: string, after: { at: Date; id: string } | undefined, take: number) {
  // Row comparison keeps the scan on the (user_id, last_message_at desc, id desc) index at any depth.
  const keyset = after ? Prisma.sql`AND (t.last_message_at, t.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<TicketRow[]>`
    SELECT t.id::text AS id, t.subject, t.status::text AS status, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
           t.last_message_at AS "lastMessageAt",
           (SELECT count(*)::int FROM support_messages m WHERE m.ticket_id = t.id) AS "messageCount"
    FROM support_tickets t
    WHERE t.user_id = ${userId}::uuid ${keyset}
    ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${take}`;
}

/** A ticket's messages, oldest first (createdAt, id), after the cursor. */
export function messagesOf(db: DbTx, ticketId: string, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (m.created_at, m.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<MessageRow[]>`
    SELECT m.id::text AS id, m.ticket_id::text AS "ticketId", m.body, m.from_staff AS "fromStaff", m.created_at AS "createdAt"
    FROM support_messages m
    WHERE m.ticket_id = ${ticketId}::uuid ${keyset}
    ORDER BY m.created_at, m.id LIMIT ${take}`;
}

/** The ticket's owner and last message time, its row locked (FOR UPDATE) for the rest of the transaction. */
export async function lockTicket(tx: DbTx, ticketId: string): Promise<{ userId: string; lastMessageAt: Date } | undefined> {
  const [locked] = await tx.$queryRaw<{ userId: string; lastMessageAt: Date }[]>`
    SELECT user_id::text AS "userId", last_message_at AS "lastMessageAt"
    FROM support_tickets WHERE id = ${ticketId}::uuid FOR UPDATE`;
  return locked;
}
