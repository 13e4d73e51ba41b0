import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

// Support tickets: GET/POST /api/user/support/tickets, GET/PATCH /api/user/support/tickets/{id},
// GET/POST /api/user/support/tickets/{id}/messages.

const TICKETS = "/api/user/support/tickets";
const ticketPath = (id: string) => `${TICKETS}/${id}`;
const messagesPath = (id: string) => `${TICKETS}/${id}/messages`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function signedUp(opts: { admin?: boolean } = {}) {
  const user = newUser(opts);
  const res = await api("GET", TICKETS, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

async function openTicket(auth: Record<string, string>, subject = "Cannot open my pack", message = "The pack spins forever.") {
  const res = await api("POST", TICKETS, { headers: auth, json: { subject, message } });
  expect(res.status).toBe(201);
  return res.body.data as { ticket: Ticket; message: Message };
}

interface Ticket {
  id: string;
  subject: string;
  status: string;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string;
}
interface Message {
  id: string;
  ticketId: string;
  body: string;
  fromStaff: boolean;
  createdAt: string;
}

/** Tickets written straight to the database with chosen activity times (arrangement only). */
async function seedTickets(userId: string, times: string[]) {
  const ids: string[] = [];
  for (const [i, t] of times.entries()) {
    const at = new Date(t);
    const row = await db().supportTicket.create({
      data: { userId, subject: `Seeded ${i}`, createdAt: at, lastMessageAt: at, messages: { create: { authorId: userId, body: `m${i}`, createdAt: at } } },
    });
    ids.push(row.id);
  }
  return ids;
}

const notFoundBody = { success: false, error: { code: "NOT_FOUND", message: "Support ticket not found." } };
const ticketCount = (userId: string) => db().supportTicket.count({ where: { userId } });

describe("auth", () => {
  const id = randomUUID();
  it.each([
    ["GET", TICKETS, undefined],
    ["POST", TICKETS, { subject: "Hello there", message: "Hi" }],
    ["GET", ticketPath(id), undefined],
    ["PATCH", ticketPath(id), { status: "closed" }],
    ["GET", messagesPath(id), undefined],
    ["POST", messagesPath(id), { body: "Hi" }],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path, json) => {
    const res = await api(method, path, { json });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});

describe("POST /api/user/support/tickets", () => {
  it("opens a ticket with its first message: 201, ticket and message, both stored", async () => {
    const { auth, userId } = await signedUp();
    const before = Date.now();
    const res = await api("POST", TICKETS, { headers: auth, json: { subject: "Cannot open my pack", message: "The pack spins forever." } });
    expect(res.status).toBe(201);
    const { ticket, message } = res.body.data;
    expect(res.body).toEqual({
      success: true,
      data: {
        ticket: {
          id: expect.stringMatching(UUID),
          subject: "Cannot open my pack",
          status: "open",
          messageCount: 1,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          lastMessageAt: ticket.createdAt,
        },
        message: { id: expect.stringMatching(UUID), ticketId: ticket.id, body: "The pack spins forever.", fromStaff: false, createdAt: ticket.createdAt },
      },
    });
    expect(Date.parse(ticket.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(Date.parse(ticket.createdAt)).toBeLessThanOrEqual(Date.now() + 5_000);

    const row = await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id }, include: { messages: true } });
    expect(row).toMatchObject({ userId, subject: "Cannot open my pack", status: "open", lastMessageAt: new Date(ticket.lastMessageAt) });
    expect(row.messages).toEqual([
      { id: message.id, ticketId: ticket.id, authorId: userId, fromStaff: false, body: "The pack spins forever.", createdAt: new Date(message.createdAt) },
    ]);
  });

  it("trims the subject and the message", async () => {
    const { auth } = await signedUp();
    const { ticket, message } = await openTicket(auth, "   Wrong score shown \t", "\n  Line one\nLine two  \n");
    expect(ticket.subject).toBe("Wrong score shown");
    expect(message.body).toBe("Line one\nLine two");
    const row = await db().supportMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(row.body).toBe("Line one\nLine two");
  });

  it("accepts the limits exactly: subject 3 and 200, message 1 and 5000 characters", async () => {
    const { auth } = await signedUp();
    expect((await openTicket(auth, "abc", "x")).ticket.subject).toBe("abc");
    const big = await openTicket(auth, "s".repeat(200), "m".repeat(5000));
    expect(big.ticket.subject).toHaveLength(200);
    expect(big.message.body).toHaveLength(5000);
  });

  it("accepts 5000 non-ASCII characters sent as JSON escapes (body limit is not the bottleneck)", async () => {
    const { auth } = await signedUp();
    const body = JSON.stringify({ subject: "Émoji test", message: "é".repeat(5000) }).replace(/é/g, "\\u00e9");
    const res = await api("POST", TICKETS, { headers: { ...auth, "content-type": "application/json" }, body });
    expect(res.status).toBe(201);
    expect(res.body.data.message.body).toBe("é".repeat(5000));
  });

  it.each([
    ["subject too short after trimming", { subject: "  ab  ", message: "hi" }, ["body.subject"]],
    ["subject too long", { subject: "s".repeat(201), message: "hi" }, ["body.subject"]],
    ["subject on two lines", { subject: "Two\nlines", message: "hi" }, ["body.subject"]],
    ["message empty", { subject: "Hello", message: "" }, ["body.message"]],
    ["message only whitespace", { subject: "Hello", message: " \n\t " }, ["body.message"]],
    ["message too long", { subject: "Hello", message: "m".repeat(5001) }, ["body.message"]],
    ["message with NUL", { subject: "Hello", message: "a\u0000b" }, ["body.message"]],
    ["subject missing", { message: "hi" }, ["body.subject"]],
    ["message missing", { subject: "Hello" }, ["body.message"]],
    ["wrong types", { subject: 42, message: ["x"] }, ["body.subject", "body.message"]],
    ["null values", { subject: null, message: null }, ["body.subject", "body.message"]],
  ])("%s is 400 VALIDATION_ERROR naming the field, and stores nothing", async (_label, json, paths) => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", TICKETS, { headers: auth, json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "Invalid request body.", details: expect.any(Array) },
    });
    expect(
      errorOf(res)
        .details!.map((d) => d.path)
        .sort(),
    ).toEqual([...paths].sort());
    expect(await ticketCount(userId)).toBe(0);
  });

  it("an unknown key is 400 naming it, and stores nothing", async () => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", TICKETS, { headers: auth, json: { subject: "Hello", message: "hi", status: "closed" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "Invalid request body.", details: [{ path: "body.status", message: "Unknown field" }] },
    });
    expect(await ticketCount(userId)).toBe(0);
  });

  it("no body, invalid JSON or a non-object body is 400", async () => {
    const { auth, userId } = await signedUp();
    for (const res of [
      await api("POST", TICKETS, { headers: auth }),
      await api("POST", TICKETS, { headers: { ...auth, "content-type": "application/json" }, body: "{not json" }),
      await api("POST", TICKETS, { headers: auth, json: ["Hello", "hi"] }),
    ]) {
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
    expect(await ticketCount(userId)).toBe(0);
  });
});

describe("GET /api/user/support/tickets", () => {
  it("answers an empty list for a new user", async () => {
    const { auth } = newUser();
    const res = await api("GET", TICKETS, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { tickets: [] } });
  });

  it("lists only the caller's tickets, newest activity first; a reply moves a ticket to the top", async () => {
    const { auth } = await signedUp();
    const other = await signedUp();
    await openTicket(other.auth, "Not mine");
    const first = await openTicket(auth, "First ticket");
    await new Promise((r) => setTimeout(r, 5));
    const second = await openTicket(auth, "Second ticket");

    const list = await api("GET", TICKETS, { headers: auth });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ success: true, data: { tickets: [second.ticket, first.ticket] } });

    await new Promise((r) => setTimeout(r, 5));
    const reply = await api("POST", messagesPath(first.ticket.id), { headers: auth, json: { body: "Any news?" } });
    expect(reply.status).toBe(201);
    const after = await api("GET", TICKETS, { headers: auth });
    expect(after.body.data.tickets.map((t: Ticket) => t.id)).toEqual([first.ticket.id, second.ticket.id]);
    expect(after.body.data.tickets[0]).toEqual(reply.body.data.ticket);
    expect(after.body.data.tickets[0]).toMatchObject({ messageCount: 2, lastMessageAt: reply.body.data.message.createdAt });
  });

  it("pages with an opaque cursor, ties broken by id, nextCursor only while more remain", async () => {
    const { auth, userId } = await signedUp();
    const ids = await seedTickets(userId, [
      "2026-03-01T00:00:00.000Z",
      "2026-03-02T00:00:00.000Z",
      "2026-03-02T00:00:00.000Z",
      "2026-03-02T00:00:00.000Z",
      "2026-03-03T00:00:00.000Z",
    ]);
    const expected = [ids[4], ...[ids[1], ids[2], ids[3]].sort().reverse(), ids[0]];

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await api("GET", `${TICKETS}?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
      expect(res.status).toBe(200);
      sizes.push(res.body.data.tickets.length);
      seen.push(...res.body.data.tickets.map((t: Ticket) => t.id));
      cursor = res.body.data.nextCursor;
      if (!cursor) {
        expect(Object.keys(res.body.data)).toEqual(["tickets"]);
        break;
      }
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(expected);
    // Exactly `limit` left: no nextCursor on the last full page.
    const all = await api("GET", `${TICKETS}?limit=5`, { headers: auth });
    expect(all.body.data.tickets.map((t: Ticket) => t.id)).toEqual(expected);
    expect(all.body.data.nextCursor).toBeUndefined();
  });

  it("defaults to 20 per page and accepts up to 50", async () => {
    const { auth, userId } = await signedUp();
    await seedTickets(
      userId,
      Array.from({ length: 21 }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()),
    );
    const page = await api("GET", TICKETS, { headers: auth });
    expect(page.body.data.tickets).toHaveLength(20);
    expect(page.body.data.nextCursor).toEqual(expect.any(String));
    const rest = await api("GET", `${TICKETS}?cursor=${page.body.data.nextCursor}`, { headers: auth });
    expect(rest.body.data.tickets).toHaveLength(1);
    expect(rest.body.data.tickets[0].subject).toBe("Seeded 0");
    const big = await api("GET", `${TICKETS}?limit=50`, { headers: auth });
    expect(big.body.data.tickets).toHaveLength(21);
    expect(big.body.data.nextCursor).toBeUndefined();
  });

  it.each(["0", "51", "abc", "1.5", ""])("limit=%j is 400", async (limit) => {
    const { auth } = newUser();
    const res = await api("GET", `${TICKETS}?limit=${limit}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["query.limit"]);
  });

  it.each([
    ["garbage", "not a cursor!"],
    ["not JSON", Buffer.from("hello").toString("base64url")],
    ["wrong version", Buffer.from(JSON.stringify(["v0", "1", randomUUID()])).toString("base64url")],
    ["non-uuid id", Buffer.from(JSON.stringify(["v1", "1767225600000", "abc"])).toString("base64url")],
    ["non-numeric time", Buffer.from(JSON.stringify(["v1", "yesterday", randomUUID()])).toString("base64url")],
  ])("a malformed cursor (%s) is 400, never 500", async (_label, cursor) => {
    const { auth } = newUser();
    const res = await api("GET", `${TICKETS}?cursor=${encodeURIComponent(cursor)}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path: "query.cursor", message: expect.any(String) }] },
    });
  });

  it("an unknown query parameter is 400", async () => {
    const { auth } = newUser();
    const res = await api("GET", `${TICKETS}?status=open`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "query.status", message: "Unknown field" }]);
  });

  it("staff see only their own tickets here", async () => {
    const fan = await signedUp();
    await openTicket(fan.auth);
    const staff = newUser({ admin: true });
    const res = await api("GET", TICKETS, { headers: staff.auth });
    expect(res.body).toEqual({ success: true, data: { tickets: [] } });
  });
});

describe("GET /api/user/support/tickets/{id}", () => {
  it("answers the ticket to its owner and to staff", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const own = await api("GET", ticketPath(ticket.id), { headers: auth });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ success: true, data: ticket });
    const staff = await api("GET", ticketPath(ticket.id), { headers: newUser({ admin: true }).auth });
    expect(staff.body).toEqual(own.body);
    // The id is case-insensitive.
    expect((await api("GET", ticketPath(ticket.id.toUpperCase()), { headers: auth })).body).toEqual(own.body);
  });

  it("another user, and an unknown id, get the same 404", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const other = await api("GET", ticketPath(ticket.id), { headers: newUser().auth });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(notFoundBody);
    const unknown = await api("GET", ticketPath(randomUUID()), { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFoundBody);
  });

  it.each(["123", "not-a-uuid", "00000000-0000-0000-0000-00000000000g", "00000000000000000000000000000000"])(
    "a malformed id %j is 400 on every ticket route",
    async (id) => {
      const { auth } = newUser();
      for (const [method, path, json] of [
        ["GET", ticketPath(id), undefined],
        ["PATCH", ticketPath(id), { status: "closed" }],
        ["GET", messagesPath(id), undefined],
        ["POST", messagesPath(id), { body: "hi" }],
      ] as const) {
        const res = await api(method, path, { headers: auth, json });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.body).toEqual({
          success: false,
          error: { code: "VALIDATION_ERROR", message: "Invalid request params.", details: [{ path: "params.id", message: "Must be a UUID" }] },
        });
      }
    },
  );
});

describe("PATCH /api/user/support/tickets/{id}", () => {
  it("the owner closes a ticket; closing again changes nothing", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const res = await api("PATCH", ticketPath(ticket.id), { headers: auth, json: { status: "closed" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { ...ticket, status: "closed", updatedAt: expect.stringMatching(ISO) },
    });
    const again = await api("PATCH", ticketPath(ticket.id), { headers: auth, json: { status: "closed" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect((await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } })).status).toBe("closed");
  });

  it("staff may close a fan's ticket; another fan gets 404 and changes nothing", async () => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const other = await api("PATCH", ticketPath(ticket.id), { headers: newUser().auth, json: { status: "closed" } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(notFoundBody);
    expect((await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } })).status).toBe("open");
    const staff = await api("PATCH", ticketPath(ticket.id), { headers: newUser({ admin: true }).auth, json: { status: "closed" } });
    expect(staff.status).toBe(200);
    expect(staff.body.data.status).toBe("closed");
  });

  it.each([[{ status: "open" }], [{ status: "pending" }], [{}], [{ status: "closed", subject: "x" }]])("%j is 400 and changes nothing", async (json) => {
    const { auth } = await signedUp();
    const { ticket } = await openTicket(auth);
    const res = await api("PATCH", ticketPath(ticket.id), { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect((await db().supportTicket.findUniqueOrThrow({ where: { id: ticket.id } })).status).toBe("open");
  });
});

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
