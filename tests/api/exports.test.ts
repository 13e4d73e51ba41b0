import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { linkSignature } from "../../lib/operations/exports/link";
import { credit } from "../../lib/core/wallets/service";
import { api, baseUrl, db, errorOf, fan, newUser } from "../helpers";

// Data exports (POST, GET /api/v1/me/exports; GET …/{exportId}; GET …/{exportId}/download; GET /api/cron/exports):
// once per 7 days under concurrency, built by the cron from one snapshot, only the caller's data, signed download
// links valid 15 minutes (refused when expired, changed or forged), another user cannot see the export, files deleted
// after 7 days.

type Auth = Record<string, string>;
const EXPORTS = "/api/v1/me/exports";
const WEEK_S = 7 * 24 * 3600;
const linkSecret = () => (inject("fixtures").exports as { linkSecret: string }).linkSecret;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const uploadDir = () => (inject("fixtures").uploads as { uploadDir: string }).uploadDir;

const request = (auth: Auth) => api("POST", EXPORTS, { headers: auth });
const statusOf = async (auth: Auth, id: string) => (await api("GET", `${EXPORTS}/${id}`, { headers: auth })).body.data.export;
const cron = () => api("GET", "/api/cron/exports", { headers: { authorization: `Bearer ${cronSecret()}` } });

/** Runs the cron until the export is no longer pending or building (other tests' exports may be claimed first). */
async function built(auth: Auth, id: string) {
  for (let i = 0; i < 20; i++) {
    expect((await cron()).status).toBe(200);
    const e = await statusOf(auth, id);
    if (e.status !== "pending" && e.status !== "building") return e;
  }
  throw new Error(`export ${id} was not built`);
}

/** Downloads through a link (absolute on APP_URL: its path and query go to the server under test). */
async function download(url: string) {
  const u = new URL(url);
  const res = await fetch(`${baseUrl}${u.pathname}${u.search}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const jsonOf = (bytes: Uint8Array) => JSON.parse(strFromU8(bytes)) as { success: boolean; error: { code: string; message: string } };

function filesOf(zip: Uint8Array): Record<string, unknown> & { text: string } {
  const entries = unzipSync(zip);
  const out: Record<string, unknown> = {};
  let text = "";
  for (const [name, bytes] of Object.entries(entries)) {
    const s = strFromU8(bytes);
    text += s;
    out[name] = name.endsWith(".json") ? JSON.parse(s) : s;
  }
  return Object.assign(out, { text });
}

async function readyExport(auth: Auth) {
  const res = await request(auth);
  expect(res.status, res.text).toBe(202);
  const e = await built(auth, res.body.data.export.id);
  expect(e.status).toBe("ready");
  return e as { id: string; downloadUrl: string; downloadUrlExpiresAt: string; expiresAt: string; sizeBytes: number };
}

describe("requesting a data export", () => {
  it("202 with a pending export, then 429 EXPORT_TOO_SOON with Retry-After for 7 days; listed newest first; 401 without a session", async () => {
    const a = await fan();
    const first = await request(a.auth);
    expect(first.status, first.text).toBe(202);
    expect(first.body.data.export).toMatchObject({ status: "pending", readyAt: null, downloadUrl: null, downloadUrlExpiresAt: null });
    const again = await request(a.auth);
    expect(again.status).toBe(429);
    expect(errorOf(again).code).toBe("EXPORT_TOO_SOON");
    const retryAfter = Number(again.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(WEEK_S - 120);
    expect(retryAfter).toBeLessThanOrEqual(WEEK_S);
    const list = await api("GET", EXPORTS, { headers: a.auth });
    expect(list.body.data.exports.map((e: { id: string }) => e.id)).toEqual([first.body.data.export.id]);
    expect((await request({})).status).toBe(401);
    expect((await api("GET", EXPORTS)).status).toBe(401);
    expect((await api("GET", `${EXPORTS}?limit=0`, { headers: a.auth })).status).toBe(400);
    expect((await api("GET", `${EXPORTS}/not-a-uuid`, { headers: a.auth })).status).toBe(400);
  });

  it("two (or six) requests at once make one export", async () => {
    const a = await fan();
    const results = await Promise.all(Array.from({ length: 6 }, () => request(a.auth)));
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429 && errorOf(r).code === "EXPORT_TOO_SOON" && r.headers.get("retry-after"))).toHaveLength(5);
    expect(await db().dataExport.count({ where: { userId: a.id } })).toBe(1);
  });

  it("a failed export does not count: a new one may be requested at once", async () => {
    const a = await fan();
    const first = (await request(a.auth)).body.data.export;
    await db().dataExport.update({ where: { id: first.id }, data: { status: "failed" } });
    expect((await request(a.auth)).status).toBe(202);
  });

  it("a fully suspended fan may still request, follow, list and download their export (access to one's data); nothing else opens", async () => {
    const a = await fan();
    const staff = newUser({ admin: true });
    const imposed = await api("POST", "/api/admin/moderation/sanctions", {
      headers: staff.auth,
      json: { userId: a.id, kind: "full", hours: 24, reason: "Test" },
    });
    expect(imposed.status, imposed.text).toBe(201);
    expect(errorOf(await api("GET", "/api/v1/wallet", { headers: a.auth })).code).toBe("ACCOUNT_SUSPENDED");
    const e = await readyExport(a.auth);
    const list = await api("GET", EXPORTS, { headers: a.auth });
    expect(list.status).toBe(200);
    expect(list.body.data.exports.map((x: { id: string }) => x.id)).toEqual([e.id]);
    const { res, bytes } = await download(e.downloadUrl);
    expect(res.status).toBe(200);
    expect(filesOf(bytes)["profile.json"]).toMatchObject({ id: a.id });
    expect(errorOf(await request(a.auth)).code).toBe("EXPORT_TOO_SOON");
  });
});

describe("building an export", () => {
  it("the cron builds a zip of the caller's own data, and nothing private of anyone else", async () => {
    const [a, b] = await Promise.all([fan(1_000), fan()]);
    const tag = randomUUID().slice(0, 8);
    const handle = `exp_${tag}`;
    await db().user.update({ where: { id: a.id }, data: { handle, handleKey: handle, bio: `bio ${tag}`, email: `a-${tag}@example.com` } });
    const bHandle = `expb_${tag}`;
    await db().user.update({ where: { id: b.id }, data: { handle: bHandle, handleKey: bHandle, email: `b-secret-${tag}@example.com`, bio: `b-bio-${tag}` } });
    const at = new Date(Date.now() - 1000);
    const mine = await db().post.create({ data: { authorId: a.id, content: `my private post ${tag}`, visibility: "PRIVATE", publishAt: at } });
    await db().post.create({
      data: { authorId: a.id, content: `my hidden post ${tag}`, publishAt: at, hiddenAt: new Date(), hiddenBy: `staff_secret_${tag}` },
    });
    const theirs = await db().post.create({ data: { authorId: b.id, content: `their private post ${tag}`, visibility: "PRIVATE", publishAt: at } });
    await db().post.create({ data: { authorId: b.id, content: `their public post ${tag}`, publishAt: at } });
    const myComment = await db().postComment.create({ data: { postId: theirs.id, authorId: a.id, content: `my comment ${tag}` } });
    await db().postComment.create({ data: { postId: mine.id, authorId: b.id, content: `their comment ${tag}` } });
    await db().report.create({
      data: {
        reporterId: a.id,
        postId: theirs.id,
        reason: "SPAM",
        note: `my note ${tag}`,
        resolvedAt: new Date(),
        isOpen: null,
        resolvedBy: `staff_${tag}`,
        resolution: `staff verdict ${tag}`,
      },
    });
    await db().teamFollow.create({ data: { userId: a.id, teamId: "tm_smp" } });
    await db().userBlock.create({ data: { blockerId: a.id, blockedId: b.id } });
    const c = await fan();
    await db().userFollow.create({ data: { followerId: a.id, followeeId: c.id } });
    await db().userMute.create({ data: { muterId: a.id, mutedId: c.id } });
    const filter = { title: `filter ${tag}`, keywords: [{ keyword: `spoiler${tag}` }], contexts: ["feed"] };
    expect((await api("POST", "/api/v1/me/filters", { headers: a.auth, json: filter })).status).toBe(201);
    // A card checkout that failed: in the export, never credited (so the economy invariant is untouched).
    const purchase = await db().coinPurchase.create({
      data: { userId: a.id, productId: "coins_500", provider: "stripe", coins: 50_000n, amount: 499n, currency: "usd", state: "failed" },
    });
    // A trade proposed to c (no coins or items: nothing held), and a's offer settings.
    const trade = await db().trade.create({
      data: { proposerId: a.id, recipientId: c.id, message: `trade note ${tag}`, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    await db().tradeRefusal.create({ data: { userId: a.id, refusedId: c.id } });

    const e = await readyExport(a.auth);
    expect(e.sizeBytes).toBeGreaterThan(0);
    const { res, bytes } = await download(e.downloadUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="fan-data-export-.*\.zip"$/);
    const files = filesOf(bytes);
    for (const f of [
      "profile",
      "settings",
      "teams",
      "posts",
      "comments",
      "rep-ledger",
      "wallet-ledger",
      "collectibles",
      "listings",
      "orders",
      "notifications",
      "reports",
      "follows",
      "matchday",
    ]) {
      expect(files, f).toHaveProperty(`${f}.json`);
    }
    expect(files["profile.json"]).toMatchObject({ id: a.id, handle, email: `a-${tag}@example.com`, bio: `bio ${tag}` });
    const posts = files["posts.json"] as { content: string; hiddenByModeration: boolean }[];
    expect(posts.map((p) => p.content).sort()).toEqual([`my hidden post ${tag}`, `my private post ${tag}`]);
    expect(posts.find((p) => p.content.startsWith("my hidden"))!.hiddenByModeration).toBe(true);
    expect(files["comments.json"]).toMatchObject({ comments: [{ id: myComment.id, postId: theirs.id, content: `my comment ${tag}` }] });
    expect(files["reports.json"]).toEqual([expect.objectContaining({ postId: theirs.id, reason: "SPAM", note: `my note ${tag}`, status: "closed" })]);
    expect(files["teams.json"]).toMatchObject({ followed: [{ teamId: "tm_smp" }] });
    expect(files["settings.json"]).toMatchObject({
      blockedUsers: [{ userId: b.id, handle: bHandle }],
      mutedUsers: [{ userId: c.id }],
      keywordFilters: [{ title: `filter ${tag}`, contexts: ["feed"] }],
    });
    expect(files["orders.json"]).toMatchObject({
      trades: [{ id: trade.id, role: "proposer", message: `trade note ${tag}`, status: "open", offeredItems: [], askedItems: [] }],
      offerSettings: { minimumOffers: [], refusedUsers: [{ userId: c.id }] },
    });
    expect(files["follows.json"]).toMatchObject({ following: [{ userId: c.id }], followers: [], requestsSent: [], requestsReceived: [] });
    const ledger = files["wallet-ledger.json"] as {
      wallets: { currency: string; balance: number; transactions: { amount: number }[] }[];
      coinPurchases: unknown[];
    };
    expect(ledger.wallets).toMatchObject([{ currency: "COIN", balance: 1_000, debt: 0, transactions: [{ amount: 1_000 }] }]);
    expect(ledger.coinPurchases).toEqual([
      expect.objectContaining({ id: purchase.id, provider: "stripe", productId: "coins_500", coins: 50_000, amount: 499, currency: "usd", state: "failed" }),
    ]);
    // Nothing of anyone else's beyond a handle: not their private post, their comment, their e-mail or bio; no staff identity or verdict.
    for (const secret of [
      `their private post ${tag}`,
      `their public post ${tag}`,
      `their comment ${tag}`,
      `b-secret-${tag}`,
      `b-bio-${tag}`,
      `staff_secret_${tag}`,
      `staff_${tag}`,
      `staff verdict ${tag}`,
    ]) {
      expect(files.text, secret).not.toContain(secret);
    }
    // The file is not served by the public file route.
    const key = (await db().dataExport.findUniqueOrThrow({ where: { id: e.id } })).fileKey!;
    expect(key.startsWith("exports/")).toBe(true);
    expect((await fetch(`${baseUrl}/files/${key}`)).status).toBe(404);
  });

  it("concurrent cron runs claim an export once", async () => {
    const a = await fan();
    const id = (await request(a.auth)).body.data.export.id as string;
    const runs = await Promise.all([cron(), cron(), cron()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
    const e = await built(a.auth, id);
    expect(e.status).toBe("ready");
    expect(await db().dataExport.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "ready", attempts: 1 });
  });

  it("a build whose worker died (claimed over 15 minutes ago) is taken over; a fresh claim is left alone", async () => {
    const [a, b] = await Promise.all([fan(), fan()]);
    const stale = (await request(a.auth)).body.data.export.id as string;
    const fresh = (await request(b.auth)).body.data.export.id as string;
    await db().dataExport.update({ where: { id: stale }, data: { status: "building", claimedAt: new Date(Date.now() - 16 * 60_000), attempts: 1 } });
    await db().dataExport.update({ where: { id: fresh }, data: { status: "building", claimedAt: new Date(Date.now() - 60_000), attempts: 1 } });
    expect((await built(a.auth, stale)).status).toBe("ready");
    expect(await db().dataExport.findUniqueOrThrow({ where: { id: stale } })).toMatchObject({ attempts: 2 });
    expect(await db().dataExport.findUniqueOrThrow({ where: { id: fresh } })).toMatchObject({ status: "building", attempts: 1 });
  });

  it("one snapshot: the wallet ledger sums to the balance beside it, and agrees with another file, while credits land during the build", async () => {
    const a = await fan(500);
    // A long ledger, so the build takes a while (balance kept equal to the ledger's sum, as the invariant wants).
    await db().$transaction([
      db().$executeRaw`
        INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id)
        SELECT gen_random_uuid(), ${a.id}::uuid, 'COIN', 1, 500 + g, 'reward', 'test', 'export-snapshot' FROM generate_series(1, 3000) g`,
      db().$executeRaw`UPDATE wallets SET balance = balance + 3000 WHERE user_id = ${a.id}::uuid AND currency = 'COIN'`,
    ]);
    const id = (await request(a.auth)).body.data.export.id as string;
    let crediting = true;
    let credits = 0;
    const creditor = (async () => {
      while (crediting && credits < 400) {
        // Each credit comes with a notification in the same transaction: two areas of the export, read by two statements.
        const n = credits;
        await db().$transaction(async (tx) => {
          await credit(tx, { userId: a.id, currency: "COIN", amount: 7, reason: "reward", referenceType: "test", referenceId: `c${n}` });
          await tx.notification.create({ data: { userId: a.id, type: "MILESTONE", causeKey: `test-credit:${n}`, payload: { n } } });
        });
        credits++;
      }
    })();
    while (credits < 2) await new Promise((r) => setTimeout(r, 5)); // the build starts among running credits
    const e = await built(a.auth, id).finally(() => (crediting = false));
    await creditor;
    expect(e.status).toBe("ready");
    const files = filesOf((await download(e.downloadUrl)).bytes);
    const [w] = (files["wallet-ledger.json"] as { wallets: { balance: number; transactions: { amount: number }[] }[] }).wallets;
    const sum = w!.transactions.reduce((s, t) => s + t.amount, 0);
    expect(sum).toBe(w!.balance);
    const credited = (w!.balance - 3500) / 7;
    expect(w!.transactions.length).toBe(1 + 3000 + credited);
    // The notifications file, read by a later statement, shows exactly the credits the wallet file shows: one snapshot.
    const notified = (files["notifications.json"] as { payload: { n?: number } }[]).filter((x) => x.payload.n !== undefined);
    expect(notified.length).toBe(credited);
    // The credits really ran across the build: some are in the file, and some landed after its snapshot.
    expect(credited).toBeGreaterThan(0);
    expect(await db().walletTransaction.count({ where: { userId: a.id, referenceType: "test", amount: 7 } })).toBeGreaterThan(credited);
    const rep = files["rep-ledger.json"] as { balance: number; entries: { amount: number }[] };
    expect(rep.entries.reduce((s, t) => s + t.amount, 0)).toBe(rep.balance);
  });
});

describe("downloading an export", () => {
  it("the link works for 15 minutes without a session; an expired, changed or forged link is refused; another user cannot read it", async () => {
    const [a, b] = await Promise.all([fan(), fan()]);
    const e = await readyExport(a.auth);
    const expiresIn = new Date(e.downloadUrlExpiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);
    const url = new URL(e.downloadUrl);
    expect(url.pathname).toBe(`${EXPORTS}/${e.id}/download`);
    expect(Number(url.searchParams.get("expires")) * 1000).toBe(new Date(e.downloadUrlExpiresAt).getTime());
    expect((await download(e.downloadUrl)).res.status).toBe(200);

    const path = (id: string, expires: number, signature: string) => `${baseUrl}${EXPORTS}/${id}/download?expires=${expires}&signature=${signature}`;
    const refused = async (u: string, status: number, code: string) => {
      const res = await fetch(u);
      expect(res.status, u).toBe(status);
      expect(jsonOf(new Uint8Array(await res.arrayBuffer())).error.code).toBe(code);
    };
    // Signed with the server's key but past its expiry (made by the test: no 15-minute wait).
    const past = Math.floor(Date.now() / 1000) - 1;
    await refused(path(e.id, past, linkSignature(e.id, past, linkSecret())), 410, "EXPORT_LINK_EXPIRED");
    // A changed signature, a later expiry with the original signature, another key, another export's id.
    const expires = Number(url.searchParams.get("expires"));
    const signature = url.searchParams.get("signature")!;
    await refused(path(e.id, expires, `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`), 403, "EXPORT_LINK_INVALID");
    await refused(path(e.id, expires + 3600, signature), 403, "EXPORT_LINK_INVALID");
    await refused(path(e.id, expires, linkSignature(e.id, expires, "not-the-server-key-but-long-enough-0123456789")), 403, "EXPORT_LINK_INVALID");
    const other = (await request(b.auth)).body.data.export.id as string;
    await refused(path(other, expires, signature), 403, "EXPORT_LINK_INVALID");
    expect((await fetch(`${baseUrl}${EXPORTS}/${e.id}/download?expires=${expires}`)).status).toBe(400);

    // Another user sees nothing of it.
    const theirs = await api("GET", `${EXPORTS}/${e.id}`, { headers: b.auth });
    expect(theirs.status).toBe(404);
    expect(errorOf(theirs).code).toBe("NOT_FOUND");
    expect((await api("GET", EXPORTS, { headers: b.auth })).body.data.exports.map((x: { id: string }) => x.id)).toEqual([other]);
  });

  it("after its 7 days the export reads as expired, its links stop working, and the cron deletes its file", async () => {
    const a = await fan();
    const e = await readyExport(a.auth);
    const row = await db().dataExport.findUniqueOrThrow({ where: { id: e.id } });
    const file = path.join(uploadDir(), ...row.fileKey!.split("/"));
    expect(existsSync(file)).toBe(true);
    expect(new Date(e.expiresAt).getTime() - new Date(row.readyAt!).getTime()).toBe(WEEK_S * 1000);

    await db().dataExport.update({ where: { id: e.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await statusOf(a.auth, e.id)).toMatchObject({ status: "expired", downloadUrl: null });
    const { res, bytes } = await download(e.downloadUrl); // signed a moment ago: still within its 15 minutes
    expect(res.status).toBe(410);
    expect(jsonOf(bytes).error.code).toBe("EXPORT_EXPIRED");

    expect((await cron()).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect(await db().dataExport.findUniqueOrThrow({ where: { id: e.id } })).toMatchObject({ status: "expired", fileKey: null });
    expect(await statusOf(a.auth, e.id)).toMatchObject({ status: "expired", downloadUrl: null });
  });

  it("the cron needs the cron secret", async () => {
    expect((await api("GET", "/api/cron/exports")).status).toBe(401);
    expect((await api("GET", "/api/cron/exports", { headers: { authorization: "Bearer wrong-secret-0123456789" } })).status).toBe(401);
  });
});
