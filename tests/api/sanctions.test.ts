import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser, poster, testCard } from "../helpers";

// Reports of users, listings and binders; the caller's reports; sanctions (trading restriction, full suspension)
// and their appeals; team staff hiding comments. Each test makes its own users and content.

type Fan = Awaited<ReturnType<typeof fan>>;
const key = () => randomUUID();
const staff = () => newUser({ admin: true });

const card = testCard("Sanctions test card", "rare", 10_000);
beforeAll(() => card.create());

const report = (f: Fan, path: string, json: unknown = { reason: "spam" }) => api("POST", path, { headers: f.auth, json });
const sanction = (json: Record<string, unknown>) =>
  api("POST", "/api/admin/moderation/sanctions", { headers: staff().auth, json: { hours: 24, reason: "Test", ...json } });
const myActions = (f: Fan) => api("GET", "/api/v1/me/moderation-actions", { headers: f.auth });
const appeal = (f: Fan, actionId: string, text = "Please reconsider") =>
  api("POST", `/api/v1/me/moderation-actions/${actionId}/appeal`, { headers: f.auth, json: { text } });
const decide = (appealId: string, decision: "grant" | "deny") =>
  api("POST", `/api/admin/moderation/appeals/${appealId}/decide`, { headers: staff().auth, json: { decision } });

async function listingOf(seller: Fan, price = 500) {
  const res = await api("POST", "/api/v1/marketplace/listings", {
    headers: seller.auth,
    json: { kind: "fixed", collectibleId: await card.give(seller.id), price },
  });
  expect(res.status).toBe(201);
  return res.body.data.listing as { id: string };
}

describe("reports of users, listings and binders", () => {
  it("one open report per reporter and target, concurrently too; each kind; own is 400; reported again after review", async () => {
    const owner = await fan();
    const me = await fan();
    const listing = await listingOf(owner);
    const binder = await db().binder.create({ data: { userId: owner.id, name: "Shiny", isPublic: true } });
    for (const path of [`/api/v1/users/${owner.id}/report`, `/api/v1/marketplace/listings/${listing.id}/report`, `/api/v1/binders/${binder.id}/report`]) {
      const results = await Promise.all(Array.from({ length: 6 }, () => report(me, path, { reason: "harassment", note: "rude" })));
      expect(results.map((r) => r.status).sort(), path).toEqual([201, 409, 409, 409, 409, 409]);
      expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "ALREADY_REPORTED")).toBe(true);
      const own = await report(owner, path);
      expect(own.status, path).toBe(400);
      expect(errorOf(own).code).toBe("CANNOT_REPORT_OWN");
    }
    expect(await db().report.count({ where: { reporterId: me.id } })).toBe(3);
    const created = await report(await fan(), `/api/v1/users/${owner.id}/report`, { reason: "spam" });
    expect(created.body.data).toMatchObject({ target: { type: "user", id: owner.id }, reason: "spam", note: null });

    // Once staff resolved it, the reporter may report again.
    await db().$executeRaw`UPDATE reports SET resolved_at = now(), resolved_by = 'staff', resolution = 'dismissed', open = NULL
      WHERE reporter_id = ${me.id}::uuid AND target_user_id = ${owner.id}::uuid`;
    expect((await report(me, `/api/v1/users/${owner.id}/report`)).status).toBe(201);
  });

  it("a target the reporter cannot see is 404 and stores nothing; bad bodies are 400", async () => {
    const owner = await fan();
    const me = await fan();
    const hidden = await db().binder.create({ data: { userId: owner.id, name: "Private", isPublic: false } });
    const blocker = await fan();
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: me.id } });
    for (const path of [
      `/api/v1/binders/${hidden.id}/report`,
      `/api/v1/users/${blocker.id}/report`,
      `/api/v1/users/${randomUUID()}/report`,
      `/api/v1/marketplace/listings/${randomUUID()}/report`,
      `/api/v1/binders/${randomUUID()}/report`,
    ]) {
      const res = await report(me, path);
      expect(res.status, path).toBe(404);
    }
    const bad = await report(me, `/api/v1/users/${owner.id}/report`, { reason: "rude" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details!.map((d) => d.path)).toContain("body.reason");
    expect((await report(me, `/api/v1/users/${owner.id}/report`, { reason: "other" })).status).toBe(400);
    expect(await db().report.count({ where: { reporterId: me.id } })).toBe(0);
    expect((await api("POST", `/api/v1/users/${owner.id}/report`, { json: { reason: "spam" } })).status).toBe(401);
  });

  it("GET /api/v1/me/reports shows each report's status and never the sanction", async () => {
    const target = await fan();
    const other = await fan();
    const me = await fan();
    const a = (await report(me, `/api/v1/users/${target.id}/report`)).body.data;
    const b = (await report(me, `/api/v1/users/${other.id}/report`)).body.data;
    const author = await poster();
    const post = await db().post.create({ data: { authorId: author.id, content: "spam spam", publishAt: new Date(Date.now() - 1000) } });
    const c = (await report(me, `/api/locker-room/${post.id}/report`)).body.data;
    await sanction({ userId: target.id, kind: "trading", reason: "Scam listings SECRET" });
    await db().$executeRaw`UPDATE reports SET resolved_at = now(), resolved_by = 'staff', resolution = 'actioned', open = NULL WHERE id = ${a.id}::uuid`;
    await db().$executeRaw`UPDATE reports SET resolved_at = now(), resolved_by = 'staff', resolution = 'dismissed', open = NULL WHERE id = ${b.id}::uuid`;

    const first = await api("GET", "/api/v1/me/reports?limit=2", { headers: me.auth });
    expect(first.status).toBe(200);
    const second = await api("GET", `/api/v1/me/reports?limit=2&cursor=${first.body.data.nextCursor}`, { headers: me.auth });
    const all = [...first.body.data.reports, ...second.body.data.reports];
    expect(second.body.data.nextCursor).toBeUndefined();
    expect(all.map((r) => [r.id, r.status])).toEqual([
      [c.id, "open"],
      [b.id, "dismissed"],
      [a.id, "actioned"],
    ]);
    expect(all[0].target).toEqual({ type: "post", id: post.id });
    expect(Object.keys(all[2]).sort()).toEqual(["createdAt", "id", "note", "reason", "reviewedAt", "status", "target"]);
    expect(JSON.stringify(all)).not.toMatch(/SECRET|trading|staff/);
  });
});

describe("trading restriction", () => {
  it("stops listing, bidding, offering, buying and checkout with 403 TRADING_RESTRICTED, leaving no rows; lifting restores", async () => {
    const seller = await fan();
    const restricted = await fan(5_000);
    const fixed = await listingOf(seller, 300);
    const auctionRes = await api("POST", "/api/v1/marketplace/listings", {
      headers: seller.auth,
      json: { kind: "auction", collectibleId: await card.give(seller.id), startingPrice: 100, endsAt: new Date(Date.now() + 2 * 3_600_000).toISOString() },
    });
    const auction = auctionRes.body.data.listing;
    const ownItem = await card.give(restricted.id);
    const theirItem = await card.give(seller.id);
    expect((await api("POST", "/api/v1/marketplace/cart/items", { headers: restricted.auth, json: { listingId: fixed.id } })).status).toBe(200);

    const imposed = await sanction({ userId: restricted.id, kind: "trading", hours: 48, reason: "Chargebacks" });
    expect(imposed.status).toBe(201);
    expect(imposed.body.data.action).toMatchObject({ kind: "trading_restriction", reason: "Chargebacks", active: true, userId: restricted.id });

    const attempts = [
      api("POST", "/api/v1/marketplace/listings", { headers: restricted.auth, json: { kind: "fixed", collectibleId: ownItem, price: 100 } }),
      api("POST", `/api/v1/marketplace/listings/${auction.id}/bids`, { headers: { ...restricted.auth, "idempotency-key": key() }, json: { amount: 200 } }),
      api("POST", "/api/v1/marketplace/offers", {
        headers: { ...restricted.auth, "idempotency-key": key() },
        json: { collectibleId: theirItem, amount: 100, expiresInHours: 24 },
      }),
      api("POST", `/api/v1/marketplace/listings/${fixed.id}/buy`, { headers: { ...restricted.auth, "idempotency-key": key() } }),
      api("POST", "/api/v1/marketplace/checkout", { headers: { ...restricted.auth, "idempotency-key": key() } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(403);
      expect(errorOf(res).code).toBe("TRADING_RESTRICTED");
      expect(errorOf(res).details![0]!.path).toBe("tradingRestrictedUntil");
    }
    expect(await db().listing.count({ where: { sellerId: restricted.id } })).toBe(0);
    expect(await db().bid.count({ where: { bidderId: restricted.id } })).toBe(0);
    expect(await db().offer.count({ where: { buyerId: restricted.id } })).toBe(0);
    expect((await db().listing.findUniqueOrThrow({ where: { id: fixed.id } })).status).toBe("active");
    expect((await api("GET", "/api/v1/wallet", { headers: restricted.auth })).body.data.wallets[0].balance).toBe(5_000);
    // Reading still works.
    expect((await api("GET", "/api/v1/marketplace/cart", { headers: restricted.auth })).status).toBe(200);

    const lifted = await api("POST", `/api/admin/moderation/sanctions/${imposed.body.data.action.id}/lift`, { headers: staff().auth });
    expect(lifted.status).toBe(200);
    expect(lifted.body.data.action).toMatchObject({ active: false, liftedAt: expect.any(String) });
    expect((await api("POST", `/api/v1/marketplace/listings/${fixed.id}/buy`, { headers: { ...restricted.auth, "idempotency-key": key() } })).status).toBe(200);
  });

  it("concurrent sanctions keep the user's column at the latest end; lifting one leaves the others in force", async () => {
    const user = await fan();
    const results = await Promise.all([10, 50, 30, 20, 40].map((hours) => sanction({ userId: user.id, kind: "trading", hours })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const actions = await db().moderationAction.findMany({ where: { userId: user.id }, orderBy: { endsAt: "desc" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toEqual(actions[0]!.endsAt);
    await Promise.all(actions.slice(0, 2).map((a) => api("POST", `/api/admin/moderation/sanctions/${a.id}/lift`, { headers: staff().auth })));
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toEqual(actions[2]!.endsAt);
  });

  it("stops accepting an offer", async () => {
    const owner = await fan();
    const buyer = await fan(1_000);
    const item = await card.give(owner.id);
    const offer = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...buyer.auth, "idempotency-key": key() },
      json: { collectibleId: item, amount: 400, expiresInHours: 24 },
    });
    expect(offer.status).toBe(201);
    await sanction({ userId: owner.id, kind: "trading" });
    const res = await api("POST", `/api/v1/marketplace/offers/${offer.body.data.offer.id}/accept`, { headers: owner.auth });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("TRADING_RESTRICTED");
    expect((await db().collectible.findUniqueOrThrow({ where: { id: item } })).ownerId).toBe(owner.id);
  });
});

describe("full suspension", () => {
  it("refuses every signed-in call but reading one's actions and appealing; lifting reinstates", async () => {
    const user = await fan();
    const imposed = await sanction({ userId: user.id, kind: "full", hours: 24, reason: "Ban evasion" });
    expect(imposed.status).toBe(201);
    for (const [method, path] of [
      ["GET", "/api/user"],
      ["GET", "/api/v1/me/reports"],
      ["GET", "/api/v1/wallet"],
      ["GET", "/api/v1/me/devices"],
    ] as const) {
      const res = await api(method, path, { headers: user.auth });
      expect(res.status, path).toBe(403);
      expect(errorOf(res).code).toBe("ACCOUNT_SUSPENDED");
    }
    // Trading is refused at the gate too (the column is read by assertMayTrade as well).
    const list = await api("POST", "/api/v1/marketplace/listings", {
      headers: user.auth,
      json: { kind: "fixed", collectibleId: await card.give(user.id), price: 100 },
    });
    expect(list.status).toBe(403);

    const actions = await myActions(user);
    expect(actions.status).toBe(200);
    const [action] = actions.body.data.actions;
    expect(action).toMatchObject({ id: imposed.body.data.action.id, kind: "full_suspension", reason: "Ban evasion", active: true, appeal: null });
    expect(action.staffId).toBeUndefined();
    expect((await appeal(user, action.id)).status).toBe(201);

    // Public routes still answer (no session).
    expect((await api("GET", "/api/health")).status).toBe(200);

    await api("POST", `/api/admin/moderation/sanctions/${action.id}/lift`, { headers: staff().auth });
    expect((await api("GET", "/api/user", { headers: user.auth })).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).suspendedUntil).toBeNull();
  });
});

describe("appeals", () => {
  it("appeal once (concurrently too), only one's own, within 30 days", async () => {
    const user = await fan();
    const action = (await sanction({ userId: user.id, kind: "posting" })).body.data.action;
    const results = await Promise.all(Array.from({ length: 5 }, () => appeal(user, action.id)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "ALREADY_APPEALED")).toBe(true);
    expect(await db().moderationAppeal.count({ where: { actionId: action.id } })).toBe(1);
    expect((await appeal(await fan(), action.id)).status).toBe(404);
    expect((await appeal(user, randomUUID())).status).toBe(404);
    const empty = await appeal(user, action.id, "   ");
    expect(empty.status).toBe(400);

    const old = (await sanction({ userId: user.id, kind: "trading" })).body.data.action;
    await db().$executeRaw`UPDATE moderation_actions SET created_at = now() - interval '31 days' WHERE id = ${old.id}::uuid`;
    const late = await appeal(user, old.id);
    expect(late.status).toBe(422);
    expect(errorOf(late).code).toBe("APPEAL_WINDOW_CLOSED");
    const within = (await sanction({ userId: user.id, kind: "trading" })).body.data.action;
    await db().$executeRaw`UPDATE moderation_actions SET created_at = now() - interval '29 days' WHERE id = ${within.id}::uuid`;
    expect((await appeal(user, within.id)).status).toBe(201);
    expect(await db().moderationAppeal.count({ where: { actionId: old.id } })).toBe(0);
  });

  it("a granted appeal restores exactly the posts the action hid and lifts the restriction, audited; decided once", async () => {
    const user = await poster();
    const [p1, p2, p3] = await Promise.all(
      [1, 2, 3].map((i) => db().post.create({ data: { authorId: user.id, content: `post ${i} ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } })),
    );
    const staffHidden = staff();
    // p3 was hidden earlier by another action: the appeal must not bring it back.
    await api("POST", `/api/admin/moderation/posts/${p3!.id}/hide`, { headers: staffHidden.auth, json: { note: "separate" } });
    const imposed = await sanction({ userId: user.id, kind: "trading", reason: "Spam and scams", hidePostIds: [p1!.id, p2!.id, p3!.id] });
    expect(imposed.status).toBe(201);
    const action = imposed.body.data.action;
    expect(action.hiddenPosts.sort()).toEqual([p1!.id, p2!.id].sort());
    expect((await api("GET", `/api/locker-room/${p1!.id}`, { headers: (await fan()).auth })).status).toBe(404);

    const filed = await appeal(user, action.id, "Those were fine");
    expect(filed.status).toBe(201);
    const queue = await api("GET", "/api/admin/moderation/appeals?limit=50", { headers: staff().auth });
    expect(queue.status).toBe(200);

    const denied = (await sanction({ userId: user.id, kind: "posting" })).body.data.action;
    const deniedAppeal = (await appeal(user, denied.id)).body.data;
    expect((await decide(deniedAppeal.id, "deny")).body.data).toMatchObject({ status: "denied", decidedBy: expect.any(String) });
    expect((await db().moderationAction.findUniqueOrThrow({ where: { id: denied.id } })).liftedAt).toBeNull();

    const granted = await decide(filed.body.data.id, "grant");
    expect(granted.status).toBe(200);
    expect(granted.body.data).toMatchObject({
      status: "granted",
      decidedAt: expect.any(String),
      action: { id: action.id, active: false, liftedBy: expect.any(String) },
    });
    const posts = await db().post.findMany({ where: { id: { in: [p1!.id, p2!.id, p3!.id] } } });
    const hiddenOf = (id: string) => posts.find((p) => p.id === id)!.hiddenAt;
    expect(hiddenOf(p1!.id)).toBeNull();
    expect(hiddenOf(p2!.id)).toBeNull();
    expect(hiddenOf(p3!.id)).toBeInstanceOf(Date);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toBeNull();
    const ok = await api("POST", "/api/v1/marketplace/listings", {
      headers: user.auth,
      json: { kind: "fixed", collectibleId: await card.give(user.id), price: 100 },
    });
    expect(ok.status).toBe(201);
    // The user sees the outcome.
    const mine = (await myActions(user)).body.data.actions.find((a: { id: string }) => a.id === action.id);
    expect(mine).toMatchObject({ active: false, appeal: { status: "granted" }, hiddenPosts: [] });

    const again = await decide(filed.body.data.id, "deny");
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("APPEAL_DECIDED");
  });

  it("concurrent decisions of one appeal: one wins, the rest are 409 APPEAL_DECIDED", async () => {
    const user = await fan();
    const action = (await sanction({ userId: user.id, kind: "trading" })).body.data.action;
    const filed = (await appeal(user, action.id)).body.data;
    const results = await Promise.all(["grant", "deny", "grant", "deny", "grant"].map((d) => decide(filed.id, d as "grant" | "deny")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "APPEAL_DECIDED")).toHaveLength(4);
    const winner = results.find((r) => r.status === 200)!.body.data.status;
    const row = await db().moderationAction.findUniqueOrThrow({ where: { id: action.id } });
    expect(row.liftedAt === null).toBe(winner === "denied");
  });

  it("a staff restore lifts a hide's own action, never a sanction that also hid the post", async () => {
    const user = await poster();
    const [a, b] = await Promise.all(
      [1, 2].map((i) => db().post.create({ data: { authorId: user.id, content: `post ${i} ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } })),
    );
    const restricted = (await sanction({ userId: user.id, kind: "trading", hidePostIds: [a!.id] })).body.data.action;
    await api("POST", `/api/admin/moderation/posts/${b!.id}/hide`, { headers: staff().auth });
    const hideAction = (await db().post.findUniqueOrThrow({ where: { id: b!.id } })).hiddenActionId!;
    for (const id of [a!.id, b!.id]) expect((await api("POST", `/api/admin/moderation/posts/${id}/restore`, { headers: staff().auth })).status).toBe(200);
    expect((await db().moderationAction.findUniqueOrThrow({ where: { id: restricted.id } })).liftedAt).toBeNull();
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).tradingRestrictedUntil).toBeInstanceOf(Date);
    expect((await db().moderationAction.findUniqueOrThrow({ where: { id: hideAction } })).liftedAt).toBeInstanceOf(Date);
  });

  it("a staff hide is an action the author sees and can appeal; granting restores the post", async () => {
    const author = await poster();
    const post = await db().post.create({ data: { authorId: author.id, content: `hidden ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } });
    await api("POST", `/api/admin/moderation/posts/${post.id}/hide`, { headers: staff().auth, json: { note: "Off-topic" } });
    const [action] = (await myActions(author)).body.data.actions;
    expect(action).toMatchObject({ kind: "content_hidden", reason: "Off-topic", endsAt: null, hiddenPosts: [post.id], active: true });
    const filed = (await appeal(author, action.id)).body.data;
    expect((await decide(filed.id, "grant")).status).toBe(200);
    expect((await db().post.findUniqueOrThrow({ where: { id: post.id } })).hiddenAt).toBeNull();
  });
});

describe("team staff hiding comments", () => {
  it("hides a comment on the team's post as an escalated action; others are 403; the author may appeal", async () => {
    const team = await db().team.findFirstOrThrow({ where: { archivedAt: null }, select: { id: true } });
    const teamStaff = await poster();
    await db().teamStaff.create({ data: { userId: teamStaff.id, teamId: team.id } });
    const author = await poster();
    const post = await db().post.create({
      data: { authorId: teamStaff.id, authorTeamId: team.id, content: "Matchday thread", publishAt: new Date(Date.now() - 1000) },
    });
    const comment = await db().postComment.create({ data: { postId: post.id, authorId: author.id, content: "abuse" } });
    await db().post.update({ where: { id: post.id }, data: { commentCount: 1 } });
    const hide = (f: { auth: Record<string, string> }, commentId = comment.id) =>
      api("POST", `/api/locker-room/${post.id}/comments/${commentId}/hide`, { headers: f.auth, json: { note: "Abusive" } });

    const outsider = await poster();
    const refused = await hide(outsider);
    expect(refused.status).toBe(403);
    expect((await hide(teamStaff, randomUUID())).status).toBe(404);

    const res = await hide(teamStaff);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ commentId: comment.id, changed: true, actionId: expect.any(String) });
    expect((await hide(teamStaff)).body.data).toMatchObject({ changed: false, actionId: null });
    const row = await db().postComment.findUniqueOrThrow({ where: { id: comment.id } });
    expect(row.hiddenAt).toBeInstanceOf(Date);
    expect((await db().post.findUniqueOrThrow({ where: { id: post.id } })).commentCount).toBe(0);
    const action = await db().moderationAction.findUniqueOrThrow({ where: { id: res.body.data.actionId } });
    expect(action).toMatchObject({ userId: author.id, kind: "CONTENT_HIDDEN", teamId: team.id, reviewedAt: null, reason: "Abusive" });

    // The author appeals; granting brings the comment back and its count.
    const filed = (await appeal(author, action.id)).body.data;
    expect((await decide(filed.id, "grant")).status).toBe(200);
    expect((await db().postComment.findUniqueOrThrow({ where: { id: comment.id } })).hiddenAt).toBeNull();
    expect((await db().post.findUniqueOrThrow({ where: { id: post.id } })).commentCount).toBe(1);
  });
});
