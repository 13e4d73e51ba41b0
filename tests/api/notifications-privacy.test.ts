import { randomBytes, randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, db, poster, testCard } from "../helpers";

// What other fans' notifications keep of a fan (docs/domains/notifications.md, accounts.md; decision 0065): after an
// erasure, nothing of the erased fan (handle, display name, their text) in the inbox, flat or grouped, nor in the
// recipient's data export; and a fan who left a team no longer reads that team's private post text through them.

type Fan = Awaited<ReturnType<typeof poster>>;
type Auth = Record<string, string>;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = (name: string) => api("GET", `/api/cron/${name}`, { headers: { authorization: `Bearer ${cronSecret()}` } });
/** A marker no id, time or other fan's data contains ("zq" is not hex). */
const marker = () => `zq${randomBytes(4).toString("hex")}`;

const card = testCard("Notification privacy card", "common", 1_000);

async function named(tag: string) {
  const f = await poster();
  const res = await api("PATCH", "/api/user/profile", { headers: f.auth, json: { handle: `H${tag}`, displayName: `Name ${tag}` } });
  expect(res.status, res.text).toBe(200);
  return { ...f, handle: `H${tag}`, displayName: `Name ${tag}` };
}

const write = async (auth: Auth, path: string, json: unknown, headers: Auth = {}) => {
  const res = await api("POST", path, { headers: { ...auth, ...headers }, json });
  expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
  return res.body.data;
};

/** The fan's inbox as every reader shows it: the flat list, the grouped list and their data export's notifications. */
async function inboxViews(f: Fan) {
  const flat = await api("GET", "/api/notifications?filter=all&limit=50", { headers: f.auth });
  const grouped = await api("GET", "/api/notifications/grouped?filter=all&limit=50", { headers: f.auth });
  expect([flat.status, grouped.status]).toEqual([200, 200]);
  // One export a week: an earlier one of this test's is taken away so that a new one may be asked for.
  await db().dataExport.deleteMany({ where: { userId: f.id } });
  const requested = await api("POST", "/api/v1/me/exports", { headers: f.auth });
  expect(requested.status, requested.text).toBe(202);
  let e = requested.body.data.export;
  for (let i = 0; i < 20 && (e.status === "pending" || e.status === "building"); i++) {
    expect((await cron("exports")).status).toBe(200);
    e = (await api("GET", `/api/v1/me/exports/${e.id}`, { headers: f.auth })).body.data.export;
  }
  expect(e.status).toBe("ready");
  const u = new URL(e.downloadUrl);
  const zip = new Uint8Array(await (await fetch(`${baseUrl}${u.pathname}${u.search}`)).arrayBuffer());
  const exported = JSON.parse(strFromU8(unzipSync(zip)["notifications.json"]!)) as { type: string; payload: Record<string, unknown> }[];
  return {
    flat: flat.body.data.notifications as { type: string; payload: Record<string, unknown> }[],
    grouped: grouped.body.data.groups as { notifications: { type: string; payload: Record<string, unknown> }[] }[],
    exported,
  };
}

const textOf = (v: unknown) => JSON.stringify(v).toLowerCase();

describe("an erased fan in other fans' notifications", () => {
  it("after the erasure, the recipient's inbox (flat, grouped) and export keep neither their handle, display name nor text", async () => {
    const tag = marker();
    const a = await named(tag);
    const b = await named(marker());
    const bPost = await write(b.auth, "/api/locker-room", { content: "b writes something" });

    // Every kind of notification a fan causes for another: a comment (REPLY) that mentions (MENTION), a post that
    // mentions, a reply to b's comment, a reaction, a repost, a quote, a follow, a trade proposal.
    const comment = await write(a.auth, `/api/locker-room/${bPost.id}/comments`, { content: `@${b.handle} comment ${tag}` });
    await write(a.auth, "/api/locker-room", { content: `post for @${b.handle} ${tag}` });
    const bComment = await write(b.auth, `/api/locker-room/${bPost.id}/comments`, { content: "b comments" });
    await write(a.auth, `/api/locker-room/${bPost.id}/comments`, { content: `reply ${tag}`, parentId: bComment.id });
    expect((await api("PUT", `/api/locker-room/${bPost.id}/reaction`, { headers: a.auth, json: { kind: "fire" } })).status).toBe(200);
    expect((await api("PUT", `/api/locker-room/${bPost.id}/repost`, { headers: a.auth })).status).toBeLessThan(300);
    await write(a.auth, "/api/locker-room", { content: `quote ${tag}`, quotedPostId: bPost.id });
    await write(a.auth, `/api/v1/users/${b.id}/follow`, undefined);
    const [mine, theirs] = [await card.give(a.id), await card.give(b.id)];
    await write(a.auth, "/api/v1/marketplace/trades", { recipientId: b.id, offeredItems: [mine], askedItems: [theirs] }, { "idempotency-key": randomUUID() });

    const types = ["REPLY", "MENTION", "REACTION", "REPOST", "QUOTE", "FOLLOW", "TRADE_UPDATE"];
    const before = await inboxViews(b);
    expect(new Set(before.flat.map((n) => n.type))).toEqual(new Set(types));
    for (const view of [before.flat, before.grouped, before.exported]) {
      for (const s of [a.handle, a.displayName, `comment ${tag}`, `reply ${tag}`, `quote ${tag}`]) expect(textOf(view)).toContain(s.toLowerCase());
    }

    // What was pushed of one of them, as the push log keeps it (b has no device here: the row is written directly).
    const replyNote = await db().notification.findFirstOrThrow({ where: { userId: b.id, type: "REPLY", causeKey: `reply:${comment.id}` } });
    const outbox = await db().pushOutbox.create({
      data: {
        id: randomUUID(),
        userId: b.id,
        notificationId: replyNote.id,
        causeKey: replyNote.causeKey,
        type: "REPLY",
        actorId: a.id,
        status: "sent",
        attempts: 1,
        sentAt: new Date(),
      },
    });
    const shown = replyNote.payload as { title: string; body: string };
    const delivery = await db().pushDelivery.create({
      data: { id: randomUUID(), outboxId: outbox.id, deviceId: randomUUID(), provider: "standin", outcome: "ok", title: shown.title, body: shown.body },
    });
    expect(textOf(delivery)).toContain(tag);

    expect((await api("POST", "/api/v1/me/deletion", { headers: a.auth, json: { confirm: true } })).status).toBe(202);
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                           not_before = now() - interval '1 second' WHERE user_id = ${a.id}::uuid`;
    expect((await cron("account-erasure")).status).toBe(200);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).state).toBe("erased");

    const after = await inboxViews(b);
    // Every notification stays (the recipient's history), about the erased fan as the app shows them: a tombstone.
    expect(new Set(after.flat.map((n) => n.type))).toEqual(new Set(types));
    for (const view of [after.flat, after.grouped.flatMap((g) => g.notifications), after.exported]) {
      expect(textOf(view)).not.toContain(tag);
      for (const n of view) {
        if (n.payload.actor) expect(n.payload.actor).toEqual({ id: a.id, handle: null, displayName: null, avatarUrl: null });
        if (["REPLY", "MENTION", "QUOTE"].includes(n.type)) expect(n.payload.body).toBe("");
      }
      const titles = view.filter((n) => n.type !== "TRADE_UPDATE" || n.payload.event === "proposed").map((n) => n.payload.title as string);
      for (const title of titles) expect(title.startsWith("A fan ")).toBe(true);
    }
    expect(await db().pushDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ title: "A fan commented on your post", body: "" });
    // A reaction's body is b's own post, which stays.
    expect(after.flat.find((n) => n.type === "REACTION")!.payload.body).toBe("b writes something");
  });
});

describe("a fan who left a team", () => {
  it("no longer reads the team's private post text in their notifications; reads it again on coming back", async () => {
    const team = "tm_smp";
    const tag = marker();
    const a = await named(marker());
    const b = await named(marker());
    expect((await api("POST", `/api/teams/${team}/follow`, { headers: b.auth })).status).toBeLessThan(300);
    expect((await api("POST", `/api/teams/${team}/join`, { headers: b.auth })).status).toBeLessThan(300);

    // A private post for the team's fans mentions b; b comments on it and a replies. A public post mentions b too.
    const priv = await write(a.auth, "/api/locker-room", { content: `@${b.handle} private ${tag}`, teamId: team, visibility: "private" });
    const bComment = await write(b.auth, `/api/locker-room/${priv.id}/comments`, { content: "b in the team thread" });
    await write(a.auth, `/api/locker-room/${priv.id}/comments`, { content: `team reply ${tag}`, parentId: bComment.id });
    await write(a.auth, "/api/locker-room", { content: `@${b.handle} public words` });

    const shown = await inboxViews(b);
    for (const view of [shown.flat, shown.exported]) expect(textOf(view)).toContain(tag);

    expect((await api("DELETE", `/api/teams/${team}/follow`, { headers: b.auth })).status).toBe(200);
    expect((await api("DELETE", `/api/teams/${team}/join`, { headers: b.auth })).status).toBe(200);
    expect((await api("GET", `/api/locker-room/${priv.id}`, { headers: b.auth })).status).toBe(404);

    const left = await inboxViews(b);
    for (const view of [left.flat, left.grouped.flatMap((g) => g.notifications), left.exported]) {
      expect(textOf(view)).not.toContain(tag);
      expect(view.filter((n) => n.payload.postId === priv.id).map((n) => [n.type, n.payload.body])).toEqual(
        expect.arrayContaining([
          ["MENTION", ""],
          ["REPLY", ""],
        ]),
      );
      // What b may still read stays: the public post's mention.
      expect(textOf(view)).toContain("public words");
    }

    // Back in the team, the text is there again: it is rendered from the post at read time.
    expect((await api("POST", `/api/teams/${team}/follow`, { headers: b.auth })).status).toBeLessThan(300);
    const back = await api("GET", "/api/notifications?filter=all&limit=50", { headers: b.auth });
    expect(textOf(back.body.data)).toContain(tag);
  });
});
