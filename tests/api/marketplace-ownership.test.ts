import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { checkInvariant } from "../../lib/operations/invariants/economy";
import { api, db, errorOf, fan, newUser, testCard } from "../helpers";

// The ownership rule: every change of owner locks the collectible first and closes any active listing or auction
// of the item in the same transaction (releasing its bid's hold), so no active listing outlives its seller's
// ownership. The economy invariant (GET /api/admin/wallets/invariant) reports any that does.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });
const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

type Fan = Awaited<ReturnType<typeof fan>>;

const card = testCard("Ownership test card", "rare", 10_000);
beforeAll(() => card.create());

const list = (f: Fan, json: Record<string, unknown>) => api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json });
const fixed = (item: string, price = 500) => ({ kind: "fixed", collectibleId: item, price });
const auction = (item: string) => ({ kind: "auction", collectibleId: item, startingPrice: 1_000, minIncrement: 100, endsAt: hoursAhead(2) });
const offer = (f: Fan, collectibleId: string, amount: number) =>
  api("POST", "/api/v1/marketplace/offers", { headers: { ...f.auth, "idempotency-key": randomUUID() }, json: { collectibleId, amount } });
const bid = (f: Fan, listingId: string, amount: number) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, { headers: { ...f.auth, "idempotency-key": randomUUID() }, json: { amount } });
const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
const ownerOf = async (id: string) => (await db().collectible.findUniqueOrThrow({ where: { id } })).ownerId;
const listingOf = async (id: string) => (await api("GET", `/api/v1/marketplace/listings/${id}`)).body.data.listing;

/** Active listings of these items whose seller is not the item's owner (the rule says: none). */
const staleListings = (items: string[]) =>
  db().$queryRaw<{ id: string }[]>`
    SELECT l.id::text AS id FROM listings l JOIN collectibles c ON c.id = l.collectible_id
    WHERE l.status = 'active' AND l.seller_id <> c.owner_id AND l.collectible_id = ANY(${items}::uuid[])`;

describe("a change of owner closes the item's listings", () => {
  it("accepting an offer while listing or auctioning the same item, 24 times at once: no active listing outlives its seller's ownership", async () => {
    const staff = newUser({ admin: true });
    const rounds = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const owner = await fan();
        const buyer = await fan(1_000);
        const item = await card.give(owner.id);
        const o = (await offer(buyer, item, 800)).body.data.offer;
        const [accepted, listed] = await Promise.all([
          api("POST", `/api/v1/marketplace/offers/${o.id}/accept`, { headers: owner.auth }),
          list(owner, i % 2 === 0 ? fixed(item) : auction(item)),
        ]);
        return { item, owner, buyer, accepted, listed, kind: i % 2 === 0 ? "fixed" : "auction" };
      }),
    );
    expect(await staleListings(rounds.map((r) => r.item))).toEqual([]);
    for (const r of rounds) {
      const owner = await ownerOf(r.item);
      if (r.accepted.status === 200) {
        // The offer won: the item is the buyer's, and a listing made first was withdrawn (an auction refuses the offer).
        expect(owner).toBe(r.buyer.id);
        if (r.listed.status === 201) expect((await listingOf(r.listed.body.data.listing.id)).status).toBe("cancelled");
        else expect(r.listed.status).toBe(404);
      } else {
        // The listing came first and was an auction: the offer is refused and the item stays.
        expect(r.kind).toBe("auction");
        expect(errorOf(r.accepted).code).toBe("ITEM_IN_AUCTION");
        expect(r.listed.status).toBe(201);
        expect(owner).toBe(r.owner.id);
      }
    }
    const report = (await api("GET", "/api/admin/wallets/invariant", { headers: staff.auth })).body.data;
    expect(report.staleListings).toEqual([]);
  });

  it("a staff refund returns the item and closes the buyer's auction of it, giving the top bid back", async () => {
    const seller = await fan();
    const item = await card.give(seller.id);
    const sale = (await list(seller, fixed(item, 1_000))).body.data.listing;
    const buyer = await fan(1_000);
    expect((await api("POST", `/api/v1/marketplace/listings/${sale.id}/buy`, { headers: { ...buyer.auth, "idempotency-key": randomUUID() } })).status).toBe(
      200,
    );
    const resale = (await list(buyer, auction(item))).body.data.listing;
    const bidder = await fan(3_000);
    expect((await bid(bidder, resale.id, 1_500)).status).toBe(201);
    expect(await balance(bidder)).toBe(1_500);

    const staff = newUser({ admin: true });
    expect((await api("POST", `/api/admin/marketplace/listings/${sale.id}/refund`, { headers: staff.auth })).status).toBe(200);
    expect(await ownerOf(item)).toBe(seller.id);
    expect(await listingOf(resale.id)).toMatchObject({ status: "cancelled" });
    expect(await balance(bidder)).toBe(3_000);
    expect(await staleListings([item])).toEqual([]);
  });

  it("the auction cron settles with the collectible locked first; concurrent runs still sell once", async () => {
    const seller = await fan();
    const item = await card.give(seller.id);
    const listing = (await list(seller, auction(item))).body.data.listing;
    const winner = await fan(2_000);
    expect((await bid(winner, listing.id, 1_200)).status).toBe(201);
    await db().$executeRaw`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = ${listing.id}::uuid`;
    const runs = await Promise.all([cron(), cron(), cron()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await ownerOf(item)).toBe(winner.id);
    expect(await listingOf(listing.id)).toMatchObject({ status: "sold", sale: { buyerId: winner.id, price: 1_200 } });
    expect(await balance(winner)).toBe(800);
  });
});

describe("the economy invariant", () => {
  it("reports an active listing whose seller no longer owns the item", async () => {
    const seller = await fan();
    const item = await card.give(seller.id);
    const listing = (await list(seller, fixed(item))).body.data.listing;
    const other = await fan();
    // A state the rule forbids, made in a transaction that is rolled back: no other test ever sees it.
    const rollback = new Error("rollback");
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE collectibles SET owner_id = ${other.id}::uuid WHERE id = ${item}::uuid`;
        const report = await checkInvariant(tx);
        expect(report.ok).toBe(false);
        expect(report.staleListings).toContainEqual({ listingId: listing.id, collectibleId: item, sellerId: seller.id, ownerId: other.id });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await staleListings([item])).toEqual([]);
  });
});
