import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ledgerScores } from "../../lib/core/rep/leaderboard/queries";
import { api, baseUrl, db, errorOf, fan, newUser, poster, testCard } from "../helpers";

// Account deletion (POST, GET, DELETE /api/v1/me/deletion; GET /api/cron/account-erasure): scheduling with the coins
// it forfeits, cancelling until the erasure claims it, and the erasure itself: holds released, ledgers whole with
// the invariant passing, counterparties' sales still listed, content gone, handle reserved, the identity-provider
// user deleted, the token refused; an auction with bids defers it; a cancel racing the erasure loses or wins whole;
// while scheduled, every trading path answers 409 ACCOUNT_DELETION_PENDING.

type Fan = Awaited<ReturnType<typeof fan>>;
type Auth = Record<string, string>;
const DELETION = "/api/v1/me/deletion";
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const erasure = () => api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret()}` } });
const marketCron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });
const standIn = () => inject("fixtures").clerk!.url!;
const key = () => randomUUID();
const schedule = (auth: Auth, json: unknown = { confirm: true }) => api("POST", DELETION, { headers: auth, json });
const balance = async (f: { auth: Auth }) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
/** The grace period is over: the erasure may take it. */
const makeDue = (userId: string) =>
  db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                   not_before = now() - interval '1 second' WHERE user_id = ${userId}::uuid`;
const stateOf = async (userId: string) => (await db().accountDeletion.findUnique({ where: { userId } }))?.state ?? null;
/** Why the last erasure of the account did not happen, for failure messages. */
const whyNot = async (userId: string) => (await db().accountDeletion.findUnique({ where: { userId } }))?.lastError ?? "";

/** Every fan id on the global all-time board, page by page. */
async function globalBoardIds(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const res = await api("GET", `/api/leaderboard?period=all&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    ids.push(...(res.body.data.entries as { fan: { id: string } }[]).map((e) => e.fan.id));
    cursor = res.body.data.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

const card = testCard("Deletion test card", "rare", 10_000);
beforeAll(() => card.create());
const list = (f: Fan, json: Record<string, unknown>) => api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json });
const auction = async (seller: Fan) =>
  (
    await list(seller, {
      kind: "auction",
      collectibleId: await card.give(seller.id),
      startingPrice: 1_000,
      minIncrement: 100,
      endsAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    })
  ).body.data.listing as { id: string; collectible: { id: string } };
const bid = (f: Fan, listingId: string, amount: number) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, { headers: { ...f.auth, "idempotency-key": key() }, json: { amount } });

describe("scheduling and cancelling", () => {
  it("schedules after the grace period with the coins it forfeits, keeps the first date, shows it, cancels it", async () => {
    const a = await fan(2_500);
    expect((await api("GET", DELETION, { headers: a.auth })).body.data).toEqual({ deletion: null });

    for (const json of [{}, { confirm: false }, { confirm: "yes" }]) {
      const res = await schedule(a.auth, json);
      expect(res.status).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toContain("body.confirm");
    }
    expect(await stateOf(a.id)).toBeNull();

    const before = Date.now();
    const res = await schedule(a.auth);
    expect(res.status).toBe(202);
    const d = res.body.data.deletion;
    expect(d).toMatchObject({ state: "scheduled", coins: { currency: "COIN", decimals: 2, balance: 2_500, held: 0, forfeited: 2_500 } });
    const due = new Date(d.scheduledFor).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 5_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000 + 5_000);

    const again = await schedule(a.auth);
    expect(again.status).toBe(202);
    expect(again.body.data.deletion.scheduledFor).toBe(d.scheduledFor);
    expect((await api("GET", DELETION, { headers: a.auth })).body.data.deletion).toEqual(d);
    // The account still works meanwhile.
    expect((await api("GET", "/api/user", { headers: a.auth })).status).toBe(200);

    const cancelled = await api("DELETE", DELETION, { headers: a.auth });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toEqual({ cancelled: true, deletion: null });
    expect((await api("GET", DELETION, { headers: a.auth })).body.data).toEqual({ deletion: null });
    const none = await api("DELETE", DELETION, { headers: a.auth });
    expect(none.status).toBe(404);
    expect(errorOf(none).code).toBe("NOT_FOUND");

    for (const method of ["GET", "POST", "DELETE"])
      expect((await api(method, DELETION, method === "POST" ? { json: { confirm: true } } : {})).status).toBe(401);
  });

  it("the forfeit counts what open offers hold", async () => {
    const [a, owner] = await Promise.all([fan(3_000), fan()]);
    const item = await card.give(owner.id);
    const offer = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...a.auth, "idempotency-key": key() },
      json: { collectibleId: item, amount: 1_000, expiresInHours: 24 },
    });
    expect(offer.status).toBe(201);
    expect((await schedule(a.auth)).body.data.deletion.coins).toMatchObject({ balance: 2_000, held: 1_000, forfeited: 3_000 });
  });

  it("a cancel after the erasure claimed the deletion is 409 DELETION_IN_PROGRESS", async () => {
    const a = await fan();
    await schedule(a.auth);
    await makeDue(a.id);
    // Hold the row as the erasure's claim does (FOR UPDATE in its transaction), then cancel meanwhile.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const claim = db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM account_deletions WHERE user_id = ${a.id}::uuid FOR UPDATE`;
      locked();
      await held;
    });
    await isLocked;
    const res = await api("DELETE", DELETION, { headers: a.auth });
    release();
    await claim;
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("DELETION_IN_PROGRESS");
    expect(await stateOf(a.id)).toBe("scheduled");
    expect((await api("DELETE", DELETION, { headers: a.auth })).status).toBe(200);
  });
});

describe("while the deletion is scheduled", () => {
  it("listing, bidding, offering, buying, checkout and accepting an offer answer 409 ACCOUNT_DELETION_PENDING and write nothing; cancelling restores", async () => {
    const [seller, leaving] = await Promise.all([fan(1_000), fan(5_000)]);
    const fixed = (await list(seller, { kind: "fixed", collectibleId: await card.give(seller.id), price: 300 })).body.data.listing as { id: string };
    const running = await auction(seller);
    const ownItem = await card.give(leaving.id);
    const theirItem = await card.give(seller.id);
    expect((await api("POST", "/api/v1/marketplace/cart/items", { headers: leaving.auth, json: { listingId: fixed.id } })).status).toBe(200);
    // An offer made to the leaving fan before the request: accepting it is trading too.
    const offerToThem = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...seller.auth, "idempotency-key": key() },
      json: { collectibleId: ownItem, amount: 100, expiresInHours: 24 },
    });
    expect(offerToThem.status, offerToThem.text).toBe(201);
    expect((await schedule(leaving.auth)).status).toBe(202);

    const attempts = await Promise.all([
      list(leaving, { kind: "fixed", collectibleId: ownItem, price: 100 }),
      bid(leaving, running.id, 1_000),
      api("POST", "/api/v1/marketplace/offers", {
        headers: { ...leaving.auth, "idempotency-key": key() },
        json: { collectibleId: theirItem, amount: 100, expiresInHours: 24 },
      }),
      api("POST", `/api/v1/marketplace/listings/${fixed.id}/buy`, { headers: { ...leaving.auth, "idempotency-key": key() } }),
      api("POST", "/api/v1/marketplace/checkout", { headers: { ...leaving.auth, "idempotency-key": key() } }),
      api("POST", `/api/v1/marketplace/offers/${offerToThem.body.data.offer.id}/accept`, { headers: { ...leaving.auth, "idempotency-key": key() } }),
    ]);
    for (const res of attempts) {
      expect(res.status, res.text).toBe(409);
      expect(errorOf(res).code).toBe("ACCOUNT_DELETION_PENDING");
    }
    expect(await balance(leaving)).toBe(5_000);
    expect(await db().listing.count({ where: { sellerId: leaving.id } })).toBe(0);
    expect(await db().bid.count({ where: { bidderId: leaving.id } })).toBe(0);
    expect(await db().offer.count({ where: { buyerId: leaving.id } })).toBe(0);
    expect((await db().collectible.findUniqueOrThrow({ where: { id: theirItem } })).ownerId).toBe(seller.id);

    expect((await api("DELETE", DELETION, { headers: leaving.auth })).status).toBe(200);
    expect((await api("POST", `/api/v1/marketplace/listings/${fixed.id}/buy`, { headers: { ...leaving.auth, "idempotency-key": key() } })).status).toBe(200);
  });
});

describe("the erasure", () => {
  it("releases holds, forfeits the balance with a ledger row, keeps ledgers and counterparties' sales whole, removes content, reserves the handle, deletes the provider user and refuses the token", async () => {
    const a = await poster();
    const [b, seller] = await Promise.all([fan(5_000), fan()]);
    const staff = newUser({ admin: true });
    const fund = await api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json: { userId: a.id, amount: 6_000, note: "test funds" } });
    expect(fund.status).toBe(201);
    const handle = `Gone_${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    expect((await api("PATCH", "/api/user/profile", { headers: a.auth, json: { handle, displayName: "Soon Gone", bio: "bye" } })).status).toBe(200);

    // An upload (its stored file), a post, a comment and a reaction on another fan's post.
    const form = new FormData();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .png()
      .toBuffer();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
    const avatar = await fetch(`${baseUrl}/api/upload/profile`, { method: "POST", headers: a.auth, body: form });
    expect(avatar.status).toBe(200);
    const uploadKey = (await db().mediaUpload.findFirstOrThrow({ where: { userId: a.id } })).key;
    const uploadDir = inject("fixtures").uploads!.uploadDir!;
    expect(existsSync(path.join(uploadDir, uploadKey))).toBe(true);

    const bPoster = await poster();
    const mine = (await api("POST", "/api/locker-room", { headers: a.auth, json: { content: "my last post" } })).body.data;
    const theirs = (await api("POST", "/api/locker-room", { headers: bPoster.auth, json: { content: "their post" } })).body.data;
    expect((await api("POST", `/api/locker-room/${theirs.id}/comments`, { headers: a.auth, json: { content: "nice" } })).status).toBe(201);
    expect((await api("PUT", `/api/locker-room/${theirs.id}/reaction`, { headers: a.auth, json: { kind: "fire" } })).status).toBe(200);
    expect((await api("GET", `/api/locker-room/${theirs.id}`)).body.data).toMatchObject({ counts: { comments: 1, reactions: { fire: 1 } } });

    // A sale to b (b's history), an open offer on b's item, the leading bid on seller's auction, a listing of its own.
    const sold = (await list(a as unknown as Fan, { kind: "fixed", collectibleId: await card.give(a.id), price: 700 })).body.data.listing;
    expect((await api("POST", `/api/v1/marketplace/listings/${sold.id}/buy`, { headers: { ...b.auth, "idempotency-key": key() } })).status).toBe(200);
    const bItem = await card.give(b.id);
    const offer = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...a.auth, "idempotency-key": key() },
      json: { collectibleId: bItem, amount: 1_000, expiresInHours: 24 },
    });
    expect(offer.status).toBe(201);
    const running = await auction(seller);
    expect((await bid(a as unknown as Fan, running.id, 1_500)).status).toBe(201);
    const own = (await list(a as unknown as Fan, { kind: "fixed", collectibleId: await card.give(a.id), price: 900 })).body.data.listing;
    const fee = Math.floor((700 * 500) / 10_000);
    expect(await balance(a)).toBe(6_000 + 700 - fee - 1_000 - 1_500);
    const bBefore = await balance(b);

    // A mint waiting in the queue (it fails at the erasure, freeing its key).
    const mintKey = `mint_${randomUUID()}`;
    const mint = await db().nftMint.create({ data: { userId: a.id, itemType: "card", itemId: mintKey, name: "queued", mintKey, walletAddress: "0xabc" } });

    // Rep puts it on the leaderboard.
    const earned = await api("POST", "/api/v1/engage/rep/earn", { headers: a.auth, json: { earnKind: "daily_visit", idempotencyKey: randomUUID() } });
    expect(earned.status, earned.text).toBeLessThan(300);
    expect(await globalBoardIds()).toContain(a.id);

    expect((await schedule(a.auth)).body.data.deletion.coins).toMatchObject({ held: 2_500, forfeited: 6_000 + 700 - fee });
    await makeDue(a.id);
    const run = await erasure();
    expect(run.status).toBe(200);
    expect(await stateOf(a.id), await whyNot(a.id)).toBe("erased");
    expect(run.body.data.erased).toBeGreaterThanOrEqual(1);

    // Holds back, then forfeited: the balance is 0 and the ledger says why; every wallet still equals its ledger.
    expect(await db().wallet.findUniqueOrThrow({ where: { userId_currency: { userId: a.id, currency: "COIN" } } })).toMatchObject({ balance: 0n });
    expect((await db().offer.findUniqueOrThrow({ where: { id: offer.body.data.offer.id } })).status).toBe("cancelled");
    expect((await db().bid.findFirstOrThrow({ where: { bidderId: a.id } })).releasedAt).not.toBeNull();
    const forfeit = await db().walletTransaction.findFirstOrThrow({ where: { userId: a.id, referenceType: "account_deletion" } });
    expect(forfeit).toMatchObject({ amount: BigInt(-(6_000 + 700 - fee)), balanceAfter: 0n, reason: "adjustment" });
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).coinsForfeited).toBe(BigInt(6_000 + 700 - fee));
    expect(await db().walletTransaction.count({ where: { userId: a.id } })).toBeGreaterThanOrEqual(7);
    const invariant = await api("GET", "/api/admin/wallets/invariant", { headers: staff.auth });
    expect(invariant.body.data).toMatchObject({ ok: true, mismatches: [], staleListings: [] });

    // The seller's auction runs on without the bid; a's own listing is cancelled; b's purchase is still listed.
    expect((await api("GET", `/api/v1/marketplace/listings/${running.id}`)).body.data.listing).toMatchObject({
      status: "active",
      bidCount: 0,
      topBidderId: null,
      minNextBid: 1_000,
    });
    expect((await api("GET", `/api/v1/marketplace/listings/${own.id}`)).body.data.listing.status).toBe("cancelled");
    const sale = (await api("GET", `/api/v1/marketplace/listings/${sold.id}`)).body.data.listing;
    expect(sale).toMatchObject({ status: "sold", seller: { id: a.id, handle: null, displayName: null }, sale: { buyerId: b.id, price: 700 } });
    expect(await balance(b)).toBe(bBefore);
    const history = await api("GET", `/api/v1/collectibles/${sold.collectible.id}`, { headers: b.auth });
    if (history.status === 200) expect(JSON.stringify(history.body.data)).toContain(a.id);

    // Content gone: the post, the comment (counted no more), the reaction, the upload and its file.
    expect((await api("GET", `/api/locker-room/${mine.id}`)).status).toBe(404);
    expect((await api("GET", `/api/locker-room/${theirs.id}`)).body.data).toMatchObject({ counts: { comments: 0, reactions: {} } });
    expect(await db().postComment.count({ where: { authorId: a.id, content: { not: "" } } })).toBe(0);
    expect(await db().postReaction.count({ where: { userId: a.id } })).toBe(0);
    expect(await db().mediaUpload.count({ where: { userId: a.id } })).toBe(0);
    expect(existsSync(path.join(uploadDir, uploadKey))).toBe(false);

    // A tombstone: no personal data; the handle stays taken.
    expect(await db().user.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({
      handle: null,
      handleKey: handle.toLowerCase(),
      displayName: null,
      email: null,
      bio: null,
      avatarUrl: null,
    });
    const taker = await fan();
    const taken = await api("PATCH", "/api/user/profile", { headers: taker.auth, json: { handle: handle.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(errorOf(taken).code).toBe("USERNAME_TAKEN");

    // The identity-provider user is deleted, and the token (still a valid signature) no longer works.
    const calls = (await (await fetch(`${standIn()}/__control/calls`)).json()) as { method: string; path: string }[];
    expect(calls.filter((c) => c.method === "DELETE" && c.path === `/v1/users/${a.sub}`)).toHaveLength(1);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).idpSubject).toBeNull();
    const refused = await api("GET", "/api/user", { headers: a.auth });
    expect(refused.status).toBe(401);
    expect(await db().user.count({ where: { externalId: a.sub } })).toBe(1);

    expect(await db().nftMint.findUniqueOrThrow({ where: { id: mint.id } })).toMatchObject({ status: "failed", mintKey: null });

    // Off the leaderboards; its Rep ledger stays.
    expect(await globalBoardIds()).not.toContain(a.id);
    expect(await db().repEntry.count({ where: { userId: a.id } })).toBeGreaterThan(0);
    // A rebuild from the ledger leaves it off too: the ledger's scores (what a rebuild writes) skip it. (Read here
    // rather than by POST /api/admin/leaderboard/rebuild, which would rewrite the boards under other files' tests.)
    expect((await ledgerScores(db(), null, null, 1_000_000)).map((r) => r.userId)).not.toContain(a.id);

    // Running again erases nothing more and forfeits nothing more.
    await erasure();
    expect(await db().walletTransaction.count({ where: { userId: a.id, referenceType: "account_deletion" } })).toBe(1);
  });

  it("private leagues: an owned league passes to its earliest other member, a lone owner's goes, a member's seat frees", async () => {
    const [owner, first, second, loner] = await Promise.all([fan(), fan(), fan(), fan()]);
    const create = async (f: { auth: Auth }, name: string) =>
      (await api("POST", "/api/v1/private-leagues", { headers: f.auth, json: { name } })).body.data.league as { id: string; code: string };
    const [shared, alone] = await Promise.all([create(owner, "Shared"), create(loner, "Alone")]);
    for (const f of [first, second])
      expect((await api("POST", "/api/v1/private-leagues/join", { headers: f.auth, json: { code: shared.code } })).status).toBe(200);
    const other = await create(second, "Other");
    expect((await api("POST", "/api/v1/private-leagues/join", { headers: owner.auth, json: { code: other.code } })).status).toBe(200);

    for (const f of [owner, loner]) {
      await schedule(f.auth);
      await makeDue(f.id);
    }
    await erasure();
    expect([await stateOf(owner.id), await stateOf(loner.id)]).toEqual(["erased", "erased"]);

    const league = await db().privateLeague.findUniqueOrThrow({ where: { id: shared.id } });
    expect(league).toMatchObject({ ownerId: first.id, memberCount: 2 });
    expect(await db().privateLeague.findUnique({ where: { id: alone.id } })).toBeNull();
    expect(await db().privateLeague.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({ ownerId: second.id, memberCount: 1 });
    expect(await db().privateLeagueMember.count({ where: { userId: owner.id } })).toBe(0);
  });

  it("an auction with bids defers the erasure until it settles", async () => {
    const [a, bidder] = await Promise.all([fan(), fan(5_000)]);
    const listing = await auction(a);
    expect((await bid(bidder, listing.id, 1_200)).status).toBe(201);
    await schedule(a.auth);
    await makeDue(a.id);
    const run = await erasure();
    expect(run.body.data.deferred).toBeGreaterThanOrEqual(1);
    expect(await stateOf(a.id)).toBe("scheduled");
    const row = await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } });
    expect(row.notBefore.getTime()).toBeGreaterThan(Date.now());
    expect(row.lastError).toMatch(/has bids/);
    expect((await api("GET", "/api/user", { headers: a.auth })).status).toBe(200);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing).toMatchObject({ status: "active", bidCount: 1 });

    // The auction ends and settles (the bidder buys it); the next try erases the account, the sale stays.
    await db().$executeRaw`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = ${listing.id}::uuid`;
    await marketCron();
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("sold");
    await makeDue(a.id);
    await erasure();
    expect(await stateOf(a.id)).toBe("erased");
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing).toMatchObject({ status: "sold", sale: { buyerId: bidder.id } });
    expect((await db().collectible.findUniqueOrThrow({ where: { id: listing.collectible.id } })).ownerId).toBe(bidder.id);
  });

  it("a mint under way defers the erasure until it completes", async () => {
    const a = await fan();
    const mint = await db().nftMint.create({ data: { userId: a.id, itemType: "card", itemId: `m_${randomUUID()}`, name: "minting", status: "minting" } });
    await schedule(a.auth);
    await makeDue(a.id);
    expect((await erasure()).body.data.deferred).toBeGreaterThanOrEqual(1);
    expect(await stateOf(a.id)).toBe("scheduled");
    expect(await whyNot(a.id)).toMatch(/mint is under way/);
    await db().nftMint.update({ where: { id: mint.id }, data: { status: "minted", mintedAt: new Date() } });
    await makeDue(a.id);
    await erasure();
    expect(await stateOf(a.id), await whyNot(a.id)).toBe("erased");
    expect((await db().nftMint.findUniqueOrThrow({ where: { id: mint.id } })).status).toBe("minted");
  });

  it("a cancel racing the erasure: each account is either erased (cancel refused) or kept (cancel done), never both", async () => {
    const fans = await Promise.all(Array.from({ length: 6 }, () => fan(1_000)));
    for (const f of fans) {
      expect((await schedule(f.auth)).status).toBe(202);
      await makeDue(f.id);
    }
    const [, ...cancels] = await Promise.all([erasure(), ...fans.map((f) => api("DELETE", DELETION, { headers: f.auth }))]);
    for (const [i, f] of fans.entries()) {
      const state = await stateOf(f.id);
      const res = cancels[i]!;
      if (res.status === 200) {
        expect(state).toBeNull();
        expect((await api("GET", "/api/user", { headers: f.auth })).status).toBe(200);
        expect(await balance(f)).toBe(1_000);
      } else {
        expect([401, 409]).toContain(res.status);
        if (res.status === 409) expect(errorOf(res).code).toBe("DELETION_IN_PROGRESS");
        expect(state).toBe("erased");
        expect((await api("GET", "/api/user", { headers: f.auth })).status).toBe(401);
      }
    }
    // Whatever the race left scheduled is erased by the next run; nothing cancelled is.
    await erasure();
    for (const [i, f] of fans.entries()) expect(await stateOf(f.id)).toBe(cancels[i]!.status === 200 ? null : "erased");
  });
});
