import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { ISO, messagesPath, notFoundBody, openTicket, signedUp, type Ticket, TICKETS, ticketPath, UUID } from "./support-fixtures";

// Support tickets: GET/POST /api/user/support/tickets, GET/PATCH /api/user/support/tickets/{id}. The messages of a
// ticket are in support-messages.test.ts.

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
