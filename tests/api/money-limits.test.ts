import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";
import { api, db, errorOf, fan, newUser, testCard } from "../helpers";

// Money past 32 bits (issue 28): balances, amounts and holds are int8, every money input has a maximum (400 naming
// the field), and a wallet stops at its ceiling, 10^15 minor units (409 BALANCE_LIMIT, never a 500), except a refund.

const INT4_MAX = 2_147_483_647;
const ADJUSTMENT_MAX = 100_000_000;
const PRICE_MAX = 100_000_000;
const CEILING = 1_000_000_000_000_000;

type Fan = Awaited<ReturnType<typeof fan>>;
type Staff = ReturnType<typeof newUser>;

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });
const key = () => randomUUID();
const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
const ledger = async (f: Fan) =>
  (await api("GET", "/api/v1/wallet/transactions?limit=100", { headers: f.auth })).body.data.transactions as { amount: number }[];
const adjust = (staff: Staff, userId: string, amount: number) =>
  api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json: { userId, amount, note: "money limits test" } });

/** Credits `amount` by staff adjustments of at most ADJUSTMENT_MAX, from a staff member of its own (the money limit is per staff member). */
async function fund(f: Fan, amount: number) {
  const staff = newUser({ admin: true });
  for (let left = amount; left > 0; left -= ADJUSTMENT_MAX) {
    const res = await adjust(staff, f.id, Math.min(left, ADJUSTMENT_MAX));
    expect(res.status, res.text).toBe(201);
  }
}

/** Puts a fresh fan's balance at `amount` in one ledger row, as a staff credit would (the invariant holds). */
async function startAt(f: Fan, amount: number) {
  await db().$executeRaw`
    WITH w AS (INSERT INTO wallets (user_id, currency, balance) VALUES (${f.id}::uuid, 'COIN', ${amount}::int8) RETURNING balance)
    INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
    SELECT ${uuidv7()}::uuid, ${f.id}::uuid, 'COIN', ${amount}::int8, w.balance, 'adjustment', 'staff', 'test', 'near the ceiling' FROM w`;
}

const card = testCard("Money limits card", "rare", 1_000);
beforeAll(() => card.create());
const list = (f: Fan, json: Record<string, unknown>) => api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json });
const auction = async (seller: Fan) =>
  (await list(seller, { kind: "auction", collectibleId: await card.give(seller.id), startingPrice: 1_000, minIncrement: 100, endsAt: hoursAhead(2) })).body.data
    .listing as { id: string; collectible: { id: string } };
const bid = (f: Fan, listingId: string, amount: number) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, { headers: { ...f.auth, "idempotency-key": key() }, json: { amount } });

describe("balances past 2^31 minor units", () => {
  it("a staff credit past 2,147,483,647 is 201 and every balance reads back exactly", async () => {
    const f = await fan();
    await fund(f, INT4_MAX);
    expect(await balance(f)).toBe(INT4_MAX);
    const staff = newUser({ admin: true });
    const res = await adjust(staff, f.id, ADJUSTMENT_MAX);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.transaction).toMatchObject({ amount: ADJUSTMENT_MAX, balanceAfter: INT4_MAX + ADJUSTMENT_MAX, reason: "adjustment" });
    expect(await balance(f)).toBe(INT4_MAX + ADJUSTMENT_MAX);
    const rows = await ledger(f);
    expect(rows).toHaveLength(23);
    expect(rows.reduce((sum, t) => sum + t.amount, 0)).toBe(INT4_MAX + ADJUSTMENT_MAX);
    // A debit back below it too.
    const debit = await adjust(staff, f.id, -ADJUSTMENT_MAX);
    expect(debit.body.data.transaction.balanceAfter).toBe(INT4_MAX);
  });

  it("a top bidder whose balance is near 2^31 can be outbid: the refund takes it past, exactly", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const top = await fan();
    await fund(top, INT4_MAX - 50_000_000);
    expect((await bid(top, listing.id, 50_000_000)).status).toBe(201);
    await fund(top, 100_000_000); // at 2,147,483,647 with 50,000,000 held
    expect(await balance(top)).toBe(INT4_MAX);
    const others = await Promise.all([fan(), fan(), fan()]);
    for (const [i, other] of others.entries()) {
      await fund(other, 60_000_000);
      const amount = 50_000_000 + (i + 1) * 1_000;
      const res = await bid(other, listing.id, amount);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.listing).toMatchObject({ price: amount, topBidderId: other.id });
      expect(await balance(other)).toBe(60_000_000 - amount);
    }
    expect(await balance(top)).toBe(INT4_MAX + 50_000_000);
    for (const other of others.slice(0, 2)) expect(await balance(other)).toBe(60_000_000);
  });
});

describe("money inputs have a maximum", () => {
  it("a price, bid, offer or adjustment past its bound, or past 2^53, is 400 naming the field", async () => {
    const seller = await fan();
    const item = await card.give(seller.id);
    const buyer = await fan(10_000);
    const listing = await auction(seller);
    const fixed = (await list(seller, { kind: "fixed", collectibleId: await card.give(seller.id), price: 500 })).body.data.listing;
    const staff = newUser({ admin: true });
    const auctionOf = (extra: Record<string, unknown>) => ({ kind: "auction", collectibleId: item, startingPrice: 1_000, endsAt: hoursAhead(2), ...extra });
    for (const tooMuch of [PRICE_MAX + 1, 2 ** 31, 2 ** 53 + 2, 1e300]) {
      const cases: [() => Promise<{ status: number; body: unknown }>, string][] = [
        [() => list(seller, { kind: "fixed", collectibleId: item, price: tooMuch }), "body.price"],
        [() => list(seller, auctionOf({ startingPrice: tooMuch })), "body.startingPrice"],
        [() => list(seller, auctionOf({ reservePrice: tooMuch })), "body.reservePrice"],
        [() => list(seller, auctionOf({ minIncrement: tooMuch })), "body.minIncrement"],
        [() => api("PATCH", `/api/v1/marketplace/listings/${fixed.id}`, { headers: seller.auth, json: { price: tooMuch } }), "body.price"],
        [() => bid(buyer, listing.id, tooMuch), "body.amount"],
        [
          () =>
            api("POST", "/api/v1/marketplace/offers", { headers: { ...buyer.auth, "idempotency-key": key() }, json: { collectibleId: item, amount: tooMuch } }),
          "body.amount",
        ],
        [() => adjust(staff, buyer.id, tooMuch), "body.amount"],
        [() => adjust(staff, buyer.id, -tooMuch), "body.amount"],
      ];
      for (const [send, field] of cases) {
        const res = (await send()) as Parameters<typeof errorOf>[0];
        expect(res.status, `${field} = ${tooMuch}`).toBe(400);
        expect(errorOf(res).code).toBe("VALIDATION_ERROR");
        expect([...new Set(errorOf(res).details!.map((d) => d.path))]).toEqual([field]);
      }
    }
    const query = await api("GET", `/api/v1/marketplace/listings?minPrice=${PRICE_MAX + 1}`);
    expect(query.status).toBe(400);
    expect(errorOf(query).details!.map((d) => d.path)).toEqual(["query.minPrice"]);
    expect(await balance(buyer)).toBe(10_000);
  });

  it("the document gives each bound, BALANCE_LIMIT on the routes that credit a wallet, and the 2^53 rule", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    expect(doc.info.description).toMatch(/minor units.*below 2\^53.*BALANCE_LIMIT/s);
    const bodyOf = (path: string, method: string) => {
      const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
      return schema.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema;
    };
    expect(bodyOf("/api/v1/marketplace/listings/{listingId}/bids", "post").properties.amount.maximum).toBe(PRICE_MAX);
    expect(bodyOf("/api/v1/marketplace/offers", "post").properties.amount.maximum).toBe(PRICE_MAX);
    for (const [path, method] of [
      ["/api/v1/marketplace/listings/{listingId}/buy", "post"],
      ["/api/v1/marketplace/listings/{listingId}/bids", "post"],
      ["/api/v1/marketplace/checkout", "post"],
      ["/api/v1/marketplace/offers/{offerId}/accept", "post"],
      ["/api/v1/marketplace/offers/{offerId}/decline", "post"],
      ["/api/v1/marketplace/offers/{offerId}/cancel", "post"],
    ]) {
      expect(doc.paths[path!][method!].responses["409"].description, path).toContain("BALANCE_LIMIT");
    }
    expect(doc.components["x-error-codes"].BALANCE_LIMIT.status).toBe(409);
  });
});

describe("the wallet ceiling (10^15 minor units)", () => {
  it("a staff credit past it is 409 BALANCE_LIMIT and changes nothing; up to it is 201", async () => {
    const f = await fan();
    await startAt(f, CEILING - 50);
    const staff = newUser({ admin: true });
    const refused = await adjust(staff, f.id, 51);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error: { code: "BALANCE_LIMIT", message: "This would take a COIN wallet past its ceiling of 10,000,000,000,000.00 COIN; nothing changed." },
    });
    expect(await balance(f)).toBe(CEILING - 50);
    expect(await ledger(f)).toHaveLength(1);
    const ok = await adjust(staff, f.id, 50);
    expect(ok.status).toBe(201);
    expect(ok.body.data.transaction.balanceAfter).toBe(CEILING);
    expect(await balance(f)).toBe(CEILING);
  });

  it("a sale to a seller at the ceiling is 409 BALANCE_LIMIT for the buyer, nothing charged, nothing moved", async () => {
    const seller = await fan();
    await startAt(seller, CEILING);
    const item = await card.give(seller.id);
    const listing = (await list(seller, { kind: "fixed", collectibleId: item, price: 500 })).body.data.listing;
    const buyer = await fan(1_000);
    const res = await api("POST", `/api/v1/marketplace/listings/${listing.id}/buy`, { headers: { ...buyer.auth, "idempotency-key": key() } });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("BALANCE_LIMIT");
    expect(await balance(buyer)).toBe(1_000);
    expect(await balance(seller)).toBe(CEILING);
    expect((await db().collectible.findUniqueOrThrow({ where: { id: item } })).ownerId).toBe(seller.id);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("active");
  });

  it("a refund is never refused at the ceiling: a top bidder at it is outbid, and the funds come back past it", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const top = await fan();
    await startAt(top, CEILING);
    expect((await bid(top, listing.id, 1_000)).status).toBe(201);
    expect((await adjust(newUser({ admin: true }), top.id, 1_000)).status).toBe(201); // at the ceiling again, 1,000 held
    const other = await fan(5_000);
    const res = await bid(other, listing.id, 1_100);
    expect(res.status, res.text).toBe(201);
    expect(await balance(top)).toBe(CEILING + 1_000);
    // New money still stops there.
    expect(errorOf(await adjust(newUser({ admin: true }), top.id, 1)).code).toBe("BALANCE_LIMIT");
  });

  it("an auction whose seller is at the ceiling ends without a sale: cancelled, the bid refunded, the item kept", async () => {
    const seller = await fan();
    await startAt(seller, CEILING);
    const listing = await auction(seller);
    const bidder = await fan(5_000);
    expect((await bid(bidder, listing.id, 1_000)).status).toBe(201);
    await db().$executeRaw`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = ${listing.id}::uuid`;
    expect((await cron()).status).toBe(200);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("cancelled");
    expect(await balance(bidder)).toBe(5_000);
    expect(await balance(seller)).toBe(CEILING);
    expect((await db().collectible.findUniqueOrThrow({ where: { id: listing.collectible.id } })).ownerId).toBe(seller.id);
  });

  it("the database refuses a balance past 2^53 - 1 whatever writes it", async () => {
    const f = await fan(100);
    await expect(db().$executeRaw`UPDATE wallets SET balance = 9007199254740992 WHERE user_id = ${f.id}::uuid`).rejects.toThrow(/wallets_balance_safe_integer/);
  });

  it("the ledger invariant holds over all of it", async () => {
    const res = await api("GET", "/api/admin/wallets/invariant", { headers: newUser({ admin: true }).auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, mismatches: [] });
    expect(res.body.data.balances).toBeGreaterThan(CEILING);
  });
});
