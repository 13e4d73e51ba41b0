import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan as signedUp, newUser, testCard } from "../helpers";

// The NFT mint queue: the linked wallet, mint requests (one per item), the worker with the fixture provider
// (lib/features/economy/provider.ts: 0x00000000fa11… fails twice, 0x00000000dead… always), retries with backoff.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const worker = () => api("GET", "/api/cron/nft-mints", { headers: { authorization: `Bearer ${cronSecret()}` } });
const address = (prefix = "0x") => (prefix + randomUUID().replace(/-/g, "") + "00000000000000000000").slice(0, 42);

const card = testCard("Mint test card", "rare", 10_000);
const give = card.give;

/** A signed-up fan with `wallet` linked (none when null) and `coins` in their wallet. */
async function fan(wallet: string | null = address(), coins = 0) {
  const f = await signedUp(coins);
  if (wallet) expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: wallet } })).status).toBe(200);
  return f;
}
const mint = (auth: Record<string, string>, collectibleId: string) => api("POST", "/api/v1/nfts/mints", { headers: auth, json: { collectibleId } });
const due = (id: string) => db().$executeRaw`UPDATE nft_mints SET next_attempt_at = now() WHERE id = ${id}::uuid`;
const row = (id: string) => db().nftMint.findUniqueOrThrow({ where: { id } });

describe("linked wallet", () => {
  it("links, shows and unlinks an address; a malformed one is a 400", async () => {
    const f = await fan(null);
    expect((await api("GET", "/api/v1/nfts/wallet", { headers: f.auth })).body.data).toEqual({ address: null, linkedAt: null });
    const a = "0xABCDEF0123456789abcdef0123456789ABCDEF01";
    const linked = await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: a } });
    expect(linked.body.data).toEqual({ address: a.toLowerCase(), linkedAt: expect.any(String) });
    const bad = await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: "0x123" } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details!.map((d) => d.path)).toEqual(["body.address"]);
    expect((await api("DELETE", "/api/v1/nfts/wallet", { headers: f.auth })).body.data.address).toBeNull();
    expect(errorOf(await mint(f.auth, await give(f.id))).code).toBe("WALLET_NOT_LINKED");
  });
});

describe("mint requests", () => {
  it("queues an owned item once, also under ten concurrent requests; someone else's is 404, a listed one 409", async () => {
    const f = await fan();
    const item = await give(f.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => mint(f.auth, item)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    expect(new Set(results.map((r) => r.body.data.mint.id)).size).toBe(1);
    expect(results[0]!.body.data.mint).toMatchObject({ collectibleId: item, status: "pending", attempts: 0, txHash: null });
    expect(await db().nftMint.count({ where: { itemId: item } })).toBe(1);
    const pending = (await api("GET", "/api/user/nfts/pending", { headers: f.auth })).body.data.nfts;
    expect(pending.map((n: { itemId: string }) => n.itemId)).toContain(item);

    const other = await fan();
    expect((await mint(other.auth, item)).status).toBe(404);
    expect((await mint(other.auth, randomUUID())).status).toBe(404);
    const listedItem = await give(other.id);
    await api("POST", "/api/v1/marketplace/listings", { headers: other.auth, json: { kind: "fixed", collectibleId: listedItem, price: 100 } });
    expect(errorOf(await mint(other.auth, listedItem)).code).toBe("ITEM_LISTED");
  });

  it("a fan who may not trade cannot mint: restricted, deletion pending or a frozen wallet, each with its trading code", async () => {
    const staff = newUser({ admin: true });
    const restricted = await fan();
    const sanction = { userId: restricted.id, kind: "trading", hours: 24, reason: "Test" };
    expect((await api("POST", "/api/admin/moderation/sanctions", { headers: staff.auth, json: sanction })).status).toBe(201);
    const r = await mint(restricted.auth, await give(restricted.id));
    expect(r.status).toBe(403);
    expect(errorOf(r)).toMatchObject({ code: "TRADING_RESTRICTED", details: [{ path: "tradingRestrictedUntil" }] });

    const deleting = await fan();
    const item = await give(deleting.id);
    expect((await api("POST", "/api/v1/me/deletion", { headers: deleting.auth, json: { confirm: true } })).status).toBe(202);
    const d = await mint(deleting.auth, item);
    expect([d.status, errorOf(d).code]).toEqual([409, "ACCOUNT_DELETION_PENDING"]);

    const frozen = await fan();
    const frozenItem = await give(frozen.id);
    await db().wallet.create({ data: { userId: frozen.id, currency: "COIN", debt: 100 } });
    expect(errorOf(await mint(frozen.auth, frozenItem)).code).toBe("WALLET_FROZEN");
    await db().wallet.update({ where: { userId_currency: { userId: frozen.id, currency: "COIN" } }, data: { debt: 0 } });
    expect(await db().nftMint.count({ where: { itemId: { in: [item, frozenItem] } } })).toBe(0);
    expect((await mint(frozen.auth, frozenItem)).status).toBe(201);
  });

  it("the worker mints once even when two runs race, and the token is recorded", async () => {
    const f = await fan();
    const item = await give(f.id);
    const id = (await mint(f.auth, item)).body.data.mint.id;
    const runs = await Promise.all([worker(), worker()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    const done = await row(id);
    expect(done).toMatchObject({ status: "minted", attempts: 1, lastError: null });
    expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await worker();
    expect((await row(id)).attempts).toBe(1);
    const listed = (await api("GET", "/api/v1/nfts/mints", { headers: f.auth })).body.data.mints;
    expect(listed).toEqual([expect.objectContaining({ id, status: "minted", tokenId: done.tokenId, nextAttemptAt: null })]);
    // Minted: asking again answers the same mint, never a second one.
    expect((await mint(f.auth, item)).body.data.mint).toMatchObject({ id, status: "minted" });
  });

  it("retries a failing mint with backoff until it succeeds", async () => {
    const f = await fan(address("0x00000000fa11"));
    const id = (await mint(f.auth, await give(f.id))).body.data.mint.id;
    await worker();
    let r = await row(id);
    expect(r).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("attempt 1") });
    expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await worker();
    expect((await row(id)).attempts).toBe(1); // not due yet
    await due(id);
    await worker();
    r = await row(id);
    expect(r).toMatchObject({ status: "pending", attempts: 2 });
    expect(r.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await due(id);
    await worker();
    expect(await row(id)).toMatchObject({ status: "minted", attempts: 3, lastError: null });
  });

  it("fails for good after the last attempt; the item may then be queued again", async () => {
    const f = await fan(address("0x00000000dead"));
    const item = await give(f.id);
    const id = (await mint(f.auth, item)).body.data.mint.id;
    for (let i = 0; i < 5; i++) {
      await due(id);
      await worker();
    }
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 5, mintKey: null });
    await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: address() } });
    const again = await mint(f.auth, item);
    expect(again.status).toBe(201);
    expect(again.body.data.mint.id).not.toBe(id);
  });

  it("a claim left by a worker that died is taken again after five minutes, with the same token", async () => {
    const f = await fan();
    const id = (await mint(f.auth, await give(f.id))).body.data.mint.id;
    await db().$executeRaw`UPDATE nft_mints SET status = 'minting', attempts = 1, claimed_at = now() - interval '6 minutes' WHERE id = ${id}::uuid`;
    await worker();
    expect(await row(id)).toMatchObject({ status: "minted", attempts: 2 });
  });
});

describe("a minted item stays where it is", () => {
  const list = (f: { auth: Record<string, string> }, collectibleId: string) =>
    api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId, price: 500 } });
  const offer = (f: { auth: Record<string, string> }, collectibleId: string) =>
    api("POST", "/api/v1/marketplace/offers", { headers: { ...f.auth, "idempotency-key": randomUUID() }, json: { collectibleId, amount: 300 } });

  it("an item whose mint is queued or done cannot be listed or offered for", async () => {
    const f = await fan();
    const item = await give(f.id);
    const id = (await mint(f.auth, item)).body.data.mint.id;
    const buyer = await signedUp(10_000);
    // Queued, then (after the worker) minted: refused both times.
    for (let step = 0; step < 2; step++) {
      expect(errorOf(await list(f, item)).code).toBe("ITEM_MINTED");
      expect(errorOf(await offer(buyer, item)).code).toBe("ITEM_MINTED");
      await worker();
    }
    expect((await row(id)).status).toBe("minted");
    expect(await db().listing.count({ where: { collectibleId: item } })).toBe(0);
  });

  it("an offer made before the owner minted cannot be accepted after; its funds stay held until the buyer cancels", async () => {
    const f = await fan();
    const item = await give(f.id);
    const buyer = await signedUp(10_000);
    const made = await offer(buyer, item);
    expect(made.status).toBe(201);
    expect((await mint(f.auth, item)).status).toBe(201);
    const accepted = await api("POST", `/api/v1/marketplace/offers/${made.body.data.offer.id}/accept`, { headers: f.auth });
    expect(errorOf(accepted).code).toBe("ITEM_MINTED");
    expect((await db().collectible.findUniqueOrThrow({ where: { id: item } })).ownerId).toBe(f.id);
    const wallet = async () => (await api("GET", "/api/v1/wallet", { headers: buyer.auth })).body.data.wallets[0].balance;
    expect(await wallet()).toBe(10_000 - 300);
    expect((await api("POST", `/api/v1/marketplace/offers/${made.body.data.offer.id}/cancel`, { headers: buyer.auth })).status).toBe(200);
    expect(await wallet()).toBe(10_000);
  });

  it("listing and minting the same item at once: exactly one of them happens, every time", async () => {
    const f = await fan();
    for (let round = 0; round < 8; round++) {
      const item = await give(f.id);
      const [listed, minted] = await Promise.all([list(f, item), mint(f.auth, item)]);
      expect([listed.status, minted.status].sort()).toEqual([201, 409]);
      expect(listed.status === 201 ? errorOf(minted).code : errorOf(listed).code).toBe(listed.status === 201 ? "ITEM_LISTED" : "ITEM_MINTED");
      const listings = await db().listing.count({ where: { collectibleId: item } });
      const mints = await db().nftMint.count({ where: { itemId: item } });
      expect(listings + mints).toBe(1);
    }
  });

  it("staff cannot reverse a sale whose buyer minted the item", async () => {
    const seller = await fan();
    const item = await give(seller.id);
    const listing = (await list(seller, item)).body.data.listing.id;
    const buyer = await fan(address(), 1_000);
    const staff = newUser({ admin: true });
    expect((await api("POST", `/api/v1/marketplace/listings/${listing}/buy`, { headers: { ...buyer.auth, "idempotency-key": randomUUID() } })).status).toBe(
      200,
    );
    expect((await mint(buyer.auth, item)).status).toBe(201);
    const refund = await api("POST", `/api/admin/marketplace/listings/${listing}/refund`, { headers: staff.auth });
    expect(errorOf(refund).code).toBe("ITEM_MINTED");
    expect((await db().collectible.findUniqueOrThrow({ where: { id: item } })).ownerId).toBe(buyer.id);
  });
});
