import { expect } from "vitest";
import { api, newUser, userIdOf } from "../helpers";

// What the support tests share (support.test.ts, support-messages.test.ts): the routes, a signed-up user, a ticket
// opened through the API, and the answer for a ticket that is not the caller's.

export const TICKETS = "/api/user/support/tickets";
export const ticketPath = (id: string) => `${TICKETS}/${id}`;
export const messagesPath = (id: string) => `${TICKETS}/${id}/messages`;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function signedUp(opts: { admin?: boolean } = {}) {
  const user = newUser(opts);
  const res = await api("GET", TICKETS, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

export async function openTicket(auth: Record<string, string>, subject = "Cannot open my pack", message = "The pack spins forever.") {
  const res = await api("POST", TICKETS, { headers: auth, json: { subject, message } });
  expect(res.status).toBe(201);
  return res.body.data as { ticket: Ticket; message: Message };
}

export interface Ticket {
  id: string;
  subject: string;
  status: string;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string;
}
export interface Message {
  id: string;
  ticketId: string;
  body: string;
  fromStaff: boolean;
  createdAt: string;
}

export const notFoundBody = { success: false, error: { code: "NOT_FOUND", message: "Support ticket not found." } };
