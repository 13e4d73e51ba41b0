import type { AuthUser } from "../auth/users";
import type { Db, DbTx } from "../db/client";
import { decodeTimeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { notFound } from "../http/errors";
import { UUID_PATTERN } from "../http/schemas";
import type { CreateTicketInput } from "./schemas";

// Support tickets: a fan's conversation with staff. Only the ticket's owner and staff (admin tokens) may see or
// write a ticket; anyone else gets the same 404 as for a missing id, so ids cannot be probed.
//
// Status: a fan message sets `open` (waiting for staff) — it also re-opens a closed ticket; a staff message sets
// `pending` (waiting for the fan); closing is explicit (PATCH). Messages of one ticket are serialized by locking
// the ticket row, and each gets a createdAt strictly after the previous one, so "oldest first" is the order in
// which they were written and lastMessageAt never moves backwards.

type Viewer = Pick<AuthUser, "id" | "isAdmin">;
type TicketStatus = "open" | "pending" | "closed";

const TX = { maxWait: 10_000, timeout: 10_000 };

interface TicketRow {
  id: string;
  subject: string;
  status: TicketStatus;
  createdAt: Date;
  updatedAt: Date;
  lastMessageAt: Date;
  messageCount: number;
}

interface MessageRow {
  id: string;
  ticketId: string;
  body: string;
  fromStaff: boolean;
  createdAt: Date;
}

const toTicket = (t: TicketRow) => ({
  id: t.id,
  subject: t.subject,
  status: t.status,
  messageCount: t.messageCount,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
  lastMessageAt: t.lastMessageAt.toISOString(),
});

const toMessage = (m: MessageRow) => ({
  id: m.id,
  ticketId: m.ticketId,
  body: m.body,
  fromStaff: m.fromStaff,
  createdAt: m.createdAt.toISOString(),
});

const TICKET_SELECT = {
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
const fromSelected = ({ _count, ...t }: SelectedTicket): TicketRow => ({ ...t, messageCount: _count.messages });

const canAccess = (viewer: Viewer, ownerId: string) => viewer.isAdmin || viewer.id === ownerId;
const ticketNotFound = () => notFound("Support ticket");

/** A time cursor whose id is a uuid: anything else is a 400, never a SQL cast error. */
function decodeUuidCursor(cursor: string) {
  const after = decodeTimeCursor(cursor);
  if (!UUID_PATTERN.test(after.id)) throw invalidCursor();
  return after;
}

function page<T extends { id: string }>(rows: T[], limit: number, key: (row: T) => Date) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(key(last).getTime(), last.id) : undefined };
}

/** The caller's own tickets, newest activity first (lastMessageAt desc, id desc), keyset-paginated. */
export async function listTickets(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidCursor(cursor) : undefined;
  // Row comparison keeps the scan on the (user_id, last_message_at desc, id desc) index at any depth.
  const rows = after
    ? await db.$queryRaw<TicketRow[]>`
        SELECT t.id::text AS id, t.subject, t.status::text AS status, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
               t.last_message_at AS "lastMessageAt",
               (SELECT count(*)::int FROM support_messages m WHERE m.ticket_id = t.id) AS "messageCount"
        FROM support_tickets t
        WHERE t.user_id = ${userId}::uuid AND (t.last_message_at, t.id) < (${after.at}::timestamptz, ${after.id}::uuid)
        ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${limit + 1}`
    : await db.$queryRaw<TicketRow[]>`
        SELECT t.id::text AS id, t.subject, t.status::text AS status, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
               t.last_message_at AS "lastMessageAt",
               (SELECT count(*)::int FROM support_messages m WHERE m.ticket_id = t.id) AS "messageCount"
        FROM support_tickets t
        WHERE t.user_id = ${userId}::uuid
        ORDER BY t.last_message_at DESC, t.id DESC LIMIT ${limit + 1}`;
  const { items, nextCursor } = page(rows, limit, (r) => r.lastMessageAt);
  return { tickets: items.map(toTicket), ...(nextCursor ? { nextCursor } : {}) };
}

/** Opens a ticket and its first message in one transaction. */
export async function createTicket(db: Db, userId: string, input: CreateTicketInput) {
  const at = new Date();
  return db.$transaction(async (tx) => {
    const created = await tx.supportTicket.create({
      data: { userId, subject: input.subject, status: "open", createdAt: at, lastMessageAt: at },
      select: { id: true },
    });
    const message = await tx.supportMessage.create({
      data: { ticketId: created.id, authorId: userId, fromStaff: false, body: input.message, createdAt: at },
    });
    const ticket = await tx.supportTicket.findUniqueOrThrow({ where: { id: created.id }, select: TICKET_SELECT });
    return { ticket: toTicket(fromSelected(ticket)), message: toMessage(message) };
  }, TX);
}

/** One ticket the viewer may see (owner or staff), else 404. */
export async function getTicket(db: DbTx, viewer: Viewer, ticketId: string) {
  const ticket = await db.supportTicket.findUnique({ where: { id: ticketId }, select: TICKET_SELECT });
  if (!ticket || !canAccess(viewer, ticket.userId)) throw ticketNotFound();
  return toTicket(fromSelected(ticket));
}

/** Closes a ticket (owner or staff). Idempotent: closing a closed ticket changes nothing. */
export async function closeTicket(db: DbTx, viewer: Viewer, ticketId: string) {
  const ticket = await db.supportTicket.findUnique({ where: { id: ticketId }, select: { userId: true } });
  if (!ticket || !canAccess(viewer, ticket.userId)) throw ticketNotFound();
  await db.supportTicket.updateMany({ where: { id: ticketId, status: { not: "closed" } }, data: { status: "closed" } });
  return getTicket(db, viewer, ticketId);
}

/** A ticket's messages, oldest first (createdAt asc, id asc), keyset-paginated. */
export async function listMessages(
  db: DbTx,
  viewer: Viewer,
  ticketId: string,
  { cursor, limit }: { cursor?: string; limit: number },
) {
  const after = cursor ? decodeUuidCursor(cursor) : undefined;
  const ticket = await db.supportTicket.findUnique({ where: { id: ticketId }, select: { userId: true } });
  if (!ticket || !canAccess(viewer, ticket.userId)) throw ticketNotFound();
  const rows = after
    ? await db.$queryRaw<MessageRow[]>`
        SELECT m.id::text AS id, m.ticket_id::text AS "ticketId", m.body, m.from_staff AS "fromStaff", m.created_at AS "createdAt"
        FROM support_messages m
        WHERE m.ticket_id = ${ticketId}::uuid AND (m.created_at, m.id) > (${after.at}::timestamptz, ${after.id}::uuid)
        ORDER BY m.created_at, m.id LIMIT ${limit + 1}`
    : await db.$queryRaw<MessageRow[]>`
        SELECT m.id::text AS id, m.ticket_id::text AS "ticketId", m.body, m.from_staff AS "fromStaff", m.created_at AS "createdAt"
        FROM support_messages m
        WHERE m.ticket_id = ${ticketId}::uuid
        ORDER BY m.created_at, m.id LIMIT ${limit + 1}`;
  const { items, nextCursor } = page(rows, limit, (r) => r.createdAt);
  return { messages: items.map(toMessage), ...(nextCursor ? { nextCursor } : {}) };
}

/**
 * Adds a message. Staff (an admin token on someone else's ticket) write `fromStaff: true` and move the ticket to
 * `pending`; the owner's message moves it to `open`, re-opening a closed ticket. The ticket row is locked for the
 * transaction, so concurrent messages are serialized and lastMessageAt only moves forward.
 */
export async function postMessage(db: Db, viewer: Viewer, ticketId: string, body: string) {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ userId: string; lastMessageAt: Date }[]>`
      SELECT user_id::text AS "userId", last_message_at AS "lastMessageAt"
      FROM support_tickets WHERE id = ${ticketId}::uuid FOR UPDATE`;
    if (!locked || !canAccess(viewer, locked.userId)) throw ticketNotFound();
    const fromStaff = viewer.id !== locked.userId;
    // Strictly after the previous message, even if the clock stalls or steps back.
    const at = new Date(Math.max(Date.now(), locked.lastMessageAt.getTime() + 1));
    const message = await tx.supportMessage.create({ data: { ticketId, authorId: viewer.id, fromStaff, body, createdAt: at } });
    const ticket = await tx.supportTicket.update({
      where: { id: ticketId },
      data: { lastMessageAt: at, status: fromStaff ? "pending" : "open" },
      select: TICKET_SELECT,
    });
    return { ticket: toTicket(fromSelected(ticket)), message: toMessage(message) };
  }, TX);
}
