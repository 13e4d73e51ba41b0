import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SUPPORT_WALLET_ADJUSTMENT_LIMIT } from "../../lib/auth/roles";
import { api, db, fan, newUser } from "../helpers";

// Staff roles on the staff API (lib/auth/roles.ts): each staff route declares its area, the pipeline refuses a role
// that does not open it with 403 FORBIDDEN before anything runs, and an allowed call's audit entry names the role used
// and the request's id.

const FORBIDDEN = (area: string) => ({
  success: false,
  error: { code: "FORBIDDEN", message: `This route is for staff whose role opens the ${area} area.` },
});

describe("staff roles on the staff API", () => {
  it("refuses a moderator an economy route and lets them call a moderation one", async () => {
    const moderator = newUser({ role: "moderator" });
    const invariant = await api("GET", "/api/admin/wallets/invariant", { headers: moderator.auth });
    expect(invariant.status).toBe(403);
    expect(invariant.body).toEqual(FORBIDDEN("economy"));
    const stock = await api("PUT", `/api/admin/packs/pk_missing_${randomUUID().slice(0, 8)}/stock`, { headers: moderator.auth, json: { stock: 1 } });
    expect(stock.status).toBe(403);
    const flags = await api("GET", "/api/admin/config", { headers: moderator.auth });
    expect(flags.status).toBe(403);
    expect(flags.body).toEqual(FORBIDDEN("admin"));

    const queue = await api("GET", "/api/admin/moderation/queue", { headers: moderator.auth });
    expect(queue.status, queue.text).toBe(200);
    // The document of the staff API is open to every staff role; a fan and a made-up role are not staff.
    expect((await api("GET", "/api/admin/openapi.json", { headers: moderator.auth })).status).toBe(200);
    for (const opts of [{}, { role: "superuser" }]) {
      const res = await api("GET", "/api/admin/moderation/queue", { headers: newUser(opts).auth });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("This route is for staff only.");
    }
    // Admin keeps meaning every area.
    expect((await api("GET", "/api/admin/wallets/invariant", { headers: newUser({ admin: true }).auth })).status).toBe(200);
  });

  it("records a moderator's hide with the role used and the request id, in the change's transaction", async () => {
    const moderator = newUser({ role: "moderator" });
    const author = await fan();
    const post = await db().post.create({ data: { authorId: author.id, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } });
    const hide = await api("POST", `/api/admin/moderation/posts/${post.id}/hide`, { headers: moderator.auth, json: { note: "spam wave" } });
    expect(hide.status, hide.text).toBe(200);
    const entries = await db().auditEntry.findMany({ where: { targetType: "post", targetId: post.id } });
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: moderator.sub,
        actorRole: "moderator",
        action: "post.hide",
        requestId: hide.headers.get("x-request-id"),
        before: { hidden: false },
        after: { hidden: true, resolvedReports: 0 },
        note: "spam wave",
      }),
    ]);
    // A repeated hide changes nothing and records nothing.
    expect((await api("POST", `/api/admin/moderation/posts/${post.id}/hide`, { headers: moderator.auth, json: {} })).status).toBe(200);
    expect(await db().auditEntry.count({ where: { targetType: "post", targetId: post.id } })).toBe(1);
  });

  it("limits a support member's wallet adjustment per action; admins have no limit; each is audited", async () => {
    const support = newUser({ role: "support" });
    const target = await fan();
    const over = await api("POST", "/api/admin/wallets/adjustments", {
      headers: support.auth,
      json: { userId: target.id, amount: SUPPORT_WALLET_ADJUSTMENT_LIMIT + 1, note: "goodwill" },
    });
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe("ADJUSTMENT_OVER_LIMIT");
    expect(await db().walletTransaction.count({ where: { userId: target.id } })).toBe(0);
    expect(await db().auditEntry.count({ where: { targetType: "user", targetId: target.id } })).toBe(0);

    const ok = await api("POST", "/api/admin/wallets/adjustments", {
      headers: support.auth,
      json: { userId: target.id, amount: SUPPORT_WALLET_ADJUSTMENT_LIMIT, note: "goodwill" },
    });
    expect(ok.status, ok.text).toBe(201);
    const admin = newUser({ admin: true });
    const big = await api("POST", "/api/admin/wallets/adjustments", {
      headers: admin.auth,
      json: { userId: target.id, amount: SUPPORT_WALLET_ADJUSTMENT_LIMIT * 10, note: "refund" },
    });
    expect(big.status, big.text).toBe(201);
    const entries = await db().auditEntry.findMany({ where: { targetType: "user", targetId: target.id, action: "wallet.adjust" }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.actorId, e.actorRole, e.requestId, (e.after as { amount: number }).amount])).toEqual([
      [support.sub, "support", ok.headers.get("x-request-id"), SUPPORT_WALLET_ADJUSTMENT_LIMIT],
      [admin.sub, "admin", big.headers.get("x-request-id"), SUPPORT_WALLET_ADJUSTMENT_LIMIT * 10],
    ]);
    // A moderator does not adjust wallets at all.
    const moderator = await api("POST", "/api/admin/wallets/adjustments", {
      headers: newUser({ role: "moderator" }).auth,
      json: { userId: target.id, amount: 1, note: "x" },
    });
    expect(moderator.status).toBe(403);
  });
});
