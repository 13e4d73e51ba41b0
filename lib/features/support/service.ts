import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { notFound } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { fromSelected, lockTicket, messagesOf, TICKET_SELECT, ticketsOf, toMessage, toTicket } from "./queries";
import type { CreateTicketInput } from "./schemas";

// Support tickets: a fan's conversation with staff. Only the ticket's owner and staff (admin tokens) may see or
// write a ticket; anyone else gets the same 404 as for a missing id, so ids cannot be probed.
//
// Status: a fan message sets `open` (waiting for staff) — it also re-opens a closed ticket; a staff message sets
// `pending` (waiting for the fan); closing is explicit (PATCH). Messages of one ticket are serialized by locking
// the ticket row, and each gets a createdAt strictly after the previous one, so "oldest first" is the order in
// which they were written and lastMessageAt never moves backwards.

type Viewer = Pick<AuthUser, "id" | "isAdmin">;
const canAccess = (viewer: Viewer, ownerId: string) => viewer.isAdmin || viewer.id === ownerId;
const ticketNotFound = () => notFound("Support ticket");

/** The caller's own tickets, newest activity first (lastMessageAt desc, id desc), keyset-paginated. */
export async function listTickets(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await ticketsOf(db, userId, cursor ? decodeUuidTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage("tickets", rows, limit, (r) => encodeCursor(r.lastMessageAt.getTime(), r.id), toTicket);
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
  }, txOptions(10_000));
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
export async function listMessages(db: DbTx, viewer: Viewer, ticketId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const ticket = await db.supportTicket.findUnique({ where: { id: ticketId }, select: { userId: true } });
  if (!ticket || !canAccess(viewer, ticket.userId)) throw ticketNotFound();
  const rows = await messagesOf(db, ticketId, after, limit + 1);
  return keysetPage("messages", rows, limit, (r) => encodeCursor(r.createdAt.getTime(), r.id), toMessage);
}

/**
 * Adds a message. Staff (an admin token on someone else's ticket) write `fromStaff: true` and move the ticket to
 * `pending`; the owner's message moves it to `open`, re-opening a closed ticket. The ticket row is locked for the
 * transaction, so concurrent messages are serialized and lastMessageAt only moves forward.
 */
export async function postMessage(db: Db, viewer: Viewer, ticketId: string, body: string) {
  return db.$transaction(async (tx) => {
    const locked = await lockTicket(tx, ticketId);
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
  }, txOptions(10_000));
}
