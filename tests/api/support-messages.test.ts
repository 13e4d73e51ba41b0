import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { ISO, type Message, messagesPath, notFoundBody, openTicket, signedUp, ticketPath, UUID } from "./support-fixtures";

// Support tickets: GET/POST /api/user/support/tickets/{id}/messages.

describe("GET /api/user/support/tickets/{id}/messages", () => {
  it("lists the messages oldest first, staff replies marked fromStaff", async () => {
    const { auth } = await signedUp();
    const staff = newUser({ admin: true });
    const opened = await openTicket(auth, "Lost my streak", "My streak reset.");
    const r1 = await api("POST", messagesPath(opened.ticket.id), { headers: staff.auth, json: { body: "Looking into it." } });
    const r2 = await api("POST", messagesPath(opened.ticket.id), { headers: auth, json: { body: "Thanks!" } });
    expect([r1.status, r2.status]).toEqual([201, 201]);
    const res = await api("GET", messagesPath(opened.ticket.id), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { messages: [opened.message, r1.body.data.message, r2.body.data.message] } });
    expect(res.body.data.messages.map((m: Message) => m.fromStaff)).toEqual([false, true, false]);
    // Staff read the same thread.
    expect((await api("GET", messagesPath(opened.ticket.id), { headers: staff.auth })).body).toEqual(res.body);
  });

  it("pages oldest first with a cursor", async () => {
    const { auth } = await signedUp();
    const opened = await openTicket(auth);
    const bodies = ["one", "two", "three", "four"];
    for (const body of bodies) expect((await api("POST", messagesPath(opened.ticket.id), { headers: auth, json: { body } })).status).toBe(201);
    const first = await api("GET", `${messagesPath(opened.ticket.id)}?limit=2`, { headers: auth });
    expect(first.body.data.messages.map((m: Message) => m.body)).toEqual(["The pack spins forever.", "one"]);
    const second = await api("GET", `${messagesPath(opened.ticket.id)}?limit=2&cursor=${first.body.data.nextCursor}`, { headers: auth });
    expect(second.body.data.messages.map((m: Message) => m.body)).toEqual(["two", "three"]);
    const third = await api("GET", `${messagesPath(opened.ticket.id)}?limit=2&cursor=${second.body.data.nextCursor}`, { headers: auth });
    expect(third.body.data).toEqual({ messages: [expect.objectContaining({ body: "four" })] });
  });

  it("limit and cursor are validated", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    for (const q of ["limit=0", "limit=101", "cursor=%21%21", "extra=1"]) {
      const res = await api("GET", `${messagesPath(ticket.id)}?${q}`, { headers: auth });
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
    expect((await api("GET", `${messagesPath(ticket.id)}?limit=100`, { headers: auth })).status).toBe(200);
  });

  it("another user, and an unknown ticket, get 404", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const other = await api("GET", messagesPath(ticket.id), { headers: newUser().auth });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(notFoundBody);
    const unknown = await api("GET", messagesPath(randomUUID()), { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFoundBody);
  });
});

describe("POST /api/user/support/tickets/{id}/messages", () => {
  it("the owner's reply: 201 with the message and the ticket, lastMessageAt moves to the message", async () => {
    const { auth, userId } = await signedUp();
    const { ticket } = await openTicket(auth);
    await new Promise((r) => setTimeout(r, 5));
    const res = await api("POST", messagesPath(ticket.id), { headers: auth, json: { body: "  Still broken.  " } });
    expect(res.status).toBe(201);
    const { message } = res.body.data;
    expect(res.body).toEqual({
      success: true,
      data: {
        message: { id: expect.stringMatching(UUID), ticketId: ticket.id, body: "Still broken.", fromStaff: false, createdAt: expect.stringMatching(ISO) },
        ticket: { ...ticket, status: "open", messageCount: 2, lastMessageAt: message.createdAt, updatedAt: expect.stringMatching(ISO) },
      },
    });
    expect(Date.parse(message.createdAt)).toBeGreaterThan(Date.parse(ticket.lastMessageAt));
    const row = await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } });
    expect(row.lastMessageAt).toEqual(new Date(message.createdAt));
    expect(await db().supportMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({
      authorId: userId,
      fromStaff: false,
      body: "Still broken.",
    });
  });

  it("a staff reply is fromStaff, authored by the staff user, and sets status pending; the fan's answer sets it open", async () => {
    const { auth } = await signedUp();
    const staff = await signedUp({ admin: true });
    const { ticket } = await openTicket(auth);
    const reply = await api("POST", messagesPath(ticket.id), { headers: staff.auth, json: { body: "Try reinstalling." } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.message).toMatchObject({ fromStaff: true, body: "Try reinstalling." });
    expect(reply.body.data.ticket).toMatchObject({ status: "pending", messageCount: 2 });
    const row = await db().supportMessage.findUniqueOrThrow({ where: { id: reply.body.data.message.id } });
    expect(row).toMatchObject({ authorId: staff.userId, fromStaff: true });
    expect((await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } })).status).toBe("pending");

    const answer = await api("POST", messagesPath(ticket.id), { headers: auth, json: { body: "Did not help." } });
    expect(answer.body.data.message.fromStaff).toBe(false);
    expect(answer.body.data.ticket.status).toBe("open");
  });

  it("a fan's reply re-opens a closed ticket", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    expect((await api("PATCH", ticketPath(ticket.id), { headers: auth, json: { status: "closed" } })).body.data.status).toBe("closed");
    const res = await api("POST", messagesPath(ticket.id), { headers: auth, json: { body: "It happened again." } });
    expect(res.status).toBe(201);
    expect(res.body.data.ticket).toMatchObject({ status: "open", messageCount: 2 });
    expect((await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } })).status).toBe("open");
  });

  it("a staff reply on a closed ticket sets it pending", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    await api("PATCH", ticketPath(ticket.id), { headers: auth, json: { status: "closed" } });
    const res = await api("POST", messagesPath(ticket.id), { headers: newUser({ admin: true }).auth, json: { body: "Following up." } });
    expect(res.status).toBe(201);
    expect(res.body.data.ticket.status).toBe("pending");
  });

  it("an admin writing on their own ticket is the owner, not staff", async () => {
    const admin = newUser({ admin: true });
    const { ticket } = await openTicket(admin.auth);
    const res = await api("POST", messagesPath(ticket.id), { headers: admin.auth, json: { body: "More detail." } });
    expect(res.status).toBe(201);
    expect(res.body.data.message.fromStaff).toBe(false);
    expect(res.body.data.ticket.status).toBe("open");
  });

  it("another user gets 404 and writes nothing; an unknown ticket is 404", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const res = await api("POST", messagesPath(ticket.id), { headers: newUser().auth, json: { body: "Let me in" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
    expect(await db().supportMessage.count({ where: { ticketId: ticket.id } })).toBe(1);
    const row = await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } });
    expect(row.lastMessageAt).toEqual(new Date(ticket.lastMessageAt));
    const unknown = await api("POST", messagesPath(randomUUID()), { headers: auth, json: { body: "hi" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFoundBody);
  });

  it.each([
    [{ body: "" }, ["body.body"]],
    [{ body: "   " }, ["body.body"]],
    [{ body: "b".repeat(5001) }, ["body.body"]],
    [{ body: 5 }, ["body.body"]],
    [{}, ["body.body"]],
    [{ body: "ok", fromStaff: true }, ["body.fromStaff"]],
  ])("%j is 400 naming %j and writes nothing", async (json, paths) => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const res = await api("POST", messagesPath(ticket.id), { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(paths);
    expect(await db().supportMessage.count({ where: { ticketId: ticket.id } })).toBe(1);
  });

  it("accepts a 5000-character body", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const res = await api("POST", messagesPath(ticket.id), { headers: auth, json: { body: "b".repeat(5000) } });
    expect(res.status).toBe(201);
    expect(res.body.data.message.body).toHaveLength(5000);
  });

  it("20 concurrent replies: all stored, each strictly after the last, lastMessageAt on the newest", async () => {
    const { auth } = await signedUp();
    const staff = newUser({ admin: true });
    const { ticket, message: first } = await openTicket(auth);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api("POST", messagesPath(ticket.id), { headers: i % 2 ? staff.auth : auth, json: { body: `reply ${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const rows = await db().supportMessage.findMany({ where: { ticketId: ticket.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows).toHaveLength(21);
    expect(rows[0]!.id).toBe(first.id);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.createdAt.getTime()).toBeGreaterThan(rows[i - 1]!.createdAt.getTime());
    const saved = await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } });
    expect(saved.lastMessageAt).toEqual(rows[20]!.createdAt);
    // The last writer decided the status.
    expect(saved.status).toBe(rows[20]!.fromStaff ? "pending" : "open");
    const counts = results.map((r) => r.body.data.ticket.messageCount).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    // The API lists them in the same order.
    const listed = await api("GET", `${messagesPath(ticket.id)}?limit=100`, { headers: auth });
    expect(listed.body.data.messages.map((m: Message) => m.id)).toEqual(rows.map((r) => r.id));
  });
});
