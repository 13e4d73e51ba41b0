import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard } from "../helpers";
import { verifyRewardSerials } from "../../lib/features/challenges/shuffle";

// Collection challenges: entries lock their items against every way out (listing, accepting an offer, trades, mints),
// an item counts toward one entry at a time, one reward per collector, reward serials in the committed order,
// withdrawal and the end unlock. Every race is run concurrently and the database asserted.

type Fan = Awaited<ReturnType<typeof fan>>;

const cardA = testCard("Challenge card A", "rare", 10_000);
const cardB = testCard("Challenge card B", "common", 10_000);
const prize = testCard("Challenge prize", "legendary", 1_000);
beforeAll(() => Promise.all([cardA.create(), cardB.create(), prize.create()]));

const staff = newUser({ admin: true });
const hour = 3_600_000;

async function createChallenge(json: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/admin/challenges", {
    headers: staff.auth,
    json: {
      title: `Set ${randomUUID().slice(0, 6)}`,
      startsAt: new Date(Date.now() - hour).toISOString(),
      endsAt: new Date(Date.now() + 24 * hour).toISOString(),
      cards: [{ cardId: cardA.id }],
      reward: { rep: 50 },
      ...json,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.challenge as { id: string; title: string; reward: { firstSerial: number | null; supply: number }; fairness: { seedHash: string } };
}

const enter = (f: Fan, challengeId: string, collectibleIds: string[], headers: Record<string, string> = {}) =>
  api("PUT", `/api/v1/engage/challenges/${challengeId}/entry`, { headers: { ...f.auth, ...headers }, json: { collectibleIds } });
const withdraw = (f: Fan, challengeId: string) => api("DELETE", `/api/v1/engage/challenges/${challengeId}/entry`, { headers: f.auth });
const detail = (f: Fan | null, challengeId: string) => api("GET", `/api/v1/engage/challenges/${challengeId}`, { headers: f?.auth ?? {} });
const list = (f: Fan, collectibleId: string) =>
  api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId, price: 500 } });
const endNow = (challengeId: string) => db().$executeRaw`UPDATE challenges SET ends_at = now() - interval '1 second' WHERE id = ${challengeId}::uuid`;
const repOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);

describe("creating and reading challenges", () => {
  it("staff create one: the reward's serials are taken from the edition, the seed hash is shown and the seed kept until the end", async () => {
    const before = (await db().collectibleCard.findUniqueOrThrow({ where: { id: prize.id } })).mintedCount;
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id, count: 2 }], reward: { cardId: prize.id, supply: 3, rep: 10 } });
    expect(c).toMatchObject({
      status: "open",
      reward: { card: { id: prize.id }, supply: 3, firstSerial: before + 1, remaining: 3, rep: 10 },
      completions: 0,
      fairness: { seedHash: expect.stringMatching(/^[0-9a-f]{64}$/), seed: null },
    });
    // Cards in id order.
    const asked = [
      { id: cardA.id, count: 1 },
      { id: cardB.id, count: 2 },
    ].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect((c as unknown as { cards: { card: { id: string }; count: number }[] }).cards.map((x) => ({ id: x.card.id, count: x.count }))).toEqual(asked);
    expect((await db().collectibleCard.findUniqueOrThrow({ where: { id: prize.id } })).mintedCount).toBe(before + 3);
    const anonymous = await detail(null, c.id);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.progress).toBeNull();
    const page = await api("GET", "/api/v1/engage/challenges?status=open&limit=50");
    expect(page.body.data.challenges.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await api("GET", "/api/v1/engage/challenges?status=upcoming&limit=50")).body.data.challenges.map((x: { id: string }) => x.id)).not.toContain(c.id);
  });

  it("refuses bad challenges with a 4xx naming the field, and non-staff", async () => {
    const bad = async (json: Record<string, unknown>, status: number, path?: string) => {
      const res = await api("POST", "/api/admin/challenges", {
        headers: staff.auth,
        json: {
          title: "Bad",
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + hour).toISOString(),
          cards: [{ cardId: cardA.id }],
          reward: { rep: 5 },
          ...json,
        },
      });
      expect(res.status, res.text).toBe(status);
      if (path) expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
      return res;
    };
    await bad({ cards: [{ cardId: "cc_nope" }] }, 400, "body.cards.0.cardId");
    await bad({ cards: [{ cardId: cardA.id }, { cardId: cardA.id }] }, 400, "body.cards.1.cardId");
    await bad({ cards: [] }, 400, "body.cards");
    await bad({ endsAt: new Date(Date.now() - hour).toISOString() }, 400, "body.endsAt");
    await bad({ endsAt: "tomorrow" }, 400, "body.endsAt");
    await bad({ reward: { rep: 0 } }, 400, "body.reward.rep");
    await bad({ reward: { cardId: prize.id } }, 400, "body.reward.supply");
    await bad({ reward: { cardId: "cc_nope", supply: 1 } }, 400, "body.reward.cardId");
    expect(errorOf(await bad({ reward: { cardId: prize.id, supply: 10_000 } }, 409)).code).toBe("REWARD_CARD_SHORT");
    const fanRes = await api("POST", "/api/admin/challenges", { headers: (await fan()).auth, json: {} });
    expect(fanRes.status).toBe(403);
  });

  it("answers 404 for an unknown challenge, 400 for a malformed id, 401 for an entry without a session", async () => {
    const f = await fan();
    const unknown = randomUUID();
    expect(errorOf(await detail(f, unknown)).code).toBe("NOT_FOUND");
    expect((await detail(f, "nope")).status).toBe(400);
    expect(errorOf(await enter(f, unknown, [randomUUID()])).code).toBe("NOT_FOUND");
    expect(errorOf(await withdraw(f, unknown)).code).toBe("NOT_FOUND");
    const c = await createChallenge();
    expect((await api("PUT", `/api/v1/engage/challenges/${c.id}/entry`, { json: { collectibleIds: [randomUUID()] } })).status).toBe(401);
    expect(errorOf(await withdraw(f, c.id)).code).toBe("NOT_FOUND");
  });
});

describe("entries", () => {
  it("validates the items: the caller's, of the cards asked, no more copies than asked, each once; not before the start", async () => {
    const f = await fan();
    const other = await fan();
    const c = await createChallenge({ cards: [{ cardId: cardA.id }] });
    const a1 = await cardA.give(f.id);
    const a2 = await cardA.give(f.id);
    const b1 = await cardB.give(f.id);
    const theirs = await cardA.give(other.id);
    const check = async (ids: string[], status: number, code: string, path?: string) => {
      const res = await enter(f, c.id, ids);
      expect(res.status, res.text).toBe(status);
      expect(errorOf(res).code).toBe(code);
      if (path) expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    };
    await check([theirs], 404, "NOT_FOUND", "body.collectibleIds.0");
    await check([a1, randomUUID()], 404, "NOT_FOUND", "body.collectibleIds.1");
    await check([b1], 400, "VALIDATION_ERROR", "body.collectibleIds.0");
    await check([a1, a2], 400, "VALIDATION_ERROR", "body.collectibleIds.1");
    await check([a1, a1], 400, "VALIDATION_ERROR", "body.collectibleIds.1");
    await check([], 400, "VALIDATION_ERROR", "body.collectibleIds");
    await check(["x"], 400, "VALIDATION_ERROR", "body.collectibleIds.0");
    expect(await db().challengeEntry.count({ where: { challengeId: c.id } })).toBe(0);

    const upcoming = await createChallenge({ startsAt: new Date(Date.now() + hour).toISOString() });
    expect(errorOf(await enter(f, upcoming.id, [a1])).code).toBe("CHALLENGE_NOT_STARTED");
  });

  it("records progress, completes the set with one reward, and keeps a completed entry as it is", async () => {
    const f = await fan();
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id, count: 2 }], reward: { cardId: prize.id, supply: 2, rep: 40 } });
    const a1 = await cardA.give(f.id);
    const [b1, b2, b3] = [await cardB.give(f.id), await cardB.give(f.id), await cardB.give(f.id)];
    const rep0 = await repOf(f.id);

    const partial = await enter(f, c.id, [a1, b1]);
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.data.progress).toMatchObject({ complete: false, reward: null, entry: { completedAt: null } });
    expect(partial.body.data.progress.entry.collectibleIds.sort()).toEqual([a1, b1].sort());
    const shown = (await detail(f, c.id)).body.data.progress;
    const bCopies = shown.cards.find((x: { cardId: string }) => x.cardId === cardB.id);
    expect(bCopies).toMatchObject({ count: 2, inEntry: 1 });
    expect(bCopies.owned.map((o: { collectible: { id: string }; inEntry: boolean; eligible: boolean }) => [o.collectible.id, o.inEntry, o.eligible])).toEqual([
      [b1, true, true],
      [b2, false, true],
      [b3, false, true],
    ]);

    // Replacing the items: b1 leaves the entry (and is unlocked), b2 and b3 complete the set.
    const done = await enter(f, c.id, [a1, b2, b3]);
    expect(done.status, done.text).toBe(200);
    const p = done.body.data.progress;
    expect(p).toMatchObject({ complete: true, entry: { completedAt: expect.any(String) }, reward: { rank: 1, serial: expect.any(Number), rep: 40 } });
    expect(done.body.data.challenge).toMatchObject({ completions: 1, reward: { remaining: 1 } });
    const copy = await db().collectible.findUniqueOrThrow({ where: { id: p.reward.collectibleId } });
    expect(copy).toMatchObject({ ownerId: f.id, cardId: prize.id, serial: p.reward.serial });
    expect([c.reward.firstSerial, c.reward.firstSerial! + 1]).toContain(copy.serial);
    expect(await repOf(f.id)).toBe(rep0 + 40);
    expect((await list(f, b1)).status).toBe(201);

    // The same items again answer the entry; other items, or withdrawing, are refused.
    const again = await enter(f, c.id, [b3, a1, b2]);
    expect(again.status).toBe(200);
    expect(again.body.data.progress.reward.rank).toBe(1);
    expect(errorOf(await enter(f, c.id, [a1, b2])).code).toBe("ENTRY_COMPLETED");
    expect(errorOf(await withdraw(f, c.id)).code).toBe("ENTRY_COMPLETED");
    expect(await db().challengeReward.count({ where: { challengeId: c.id } })).toBe(1);
    expect(await repOf(f.id)).toBe(rep0 + 40);
  });

  it("replays a retried entry with the same Idempotency-Key", async () => {
    const f = await fan();
    const c = await createChallenge();
    const a1 = await cardA.give(f.id);
    const headers = { "idempotency-key": randomUUID() };
    const first = await enter(f, c.id, [a1], headers);
    const second = await enter(f, c.id, [a1], headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().challengeReward.count({ where: { challengeId: c.id } })).toBe(1);
  });
});

describe("locks", () => {
  it("a locked item cannot be listed, offered-and-accepted, traded or minted (409 ITEM_LOCKED naming the challenge); withdrawal unlocks it", async () => {
    const f = await fan();
    const buyer = await fan(5_000);
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] });
    const item = await cardA.give(f.id);
    // An offer and a trade made before the lock: accepting them later must refuse.
    const offer = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...buyer.auth, "idempotency-key": randomUUID() },
      json: { collectibleId: item, amount: 300 },
    });
    expect(offer.status, offer.text).toBe(201);
    const trade = await api("POST", "/api/v1/marketplace/trades", {
      headers: { ...buyer.auth, "idempotency-key": randomUUID() },
      json: { recipientId: f.id, offerCoins: 200, askedItems: [item] },
    });
    expect(trade.status, trade.text).toBe(201);

    expect((await enter(f, c.id, [item])).status).toBe(200);
    const locked = (res: Awaited<ReturnType<typeof api>>, code = "ITEM_LOCKED") => {
      expect(res.status, res.text).toBe(409);
      expect(errorOf(res).code).toBe(code);
      expect(JSON.stringify(errorOf(res))).toContain(c.id);
    };
    locked(await list(f, item));
    expect(errorOf(await list(f, item)).message).toContain(c.title);
    locked(await api("POST", `/api/v1/marketplace/offers/${offer.body.data.offer.id}/accept`, { headers: f.auth }));
    expect((await db().offer.findUniqueOrThrow({ where: { id: offer.body.data.offer.id } })).status).toBe("open");
    locked(await api("POST", `/api/v1/marketplace/trades/${trade.body.data.trade.id}/accept`, { headers: f.auth }), "TRADE_ITEM_LOCKED");
    expect(await db().trade.findUniqueOrThrow({ where: { id: trade.body.data.trade.id } })).toMatchObject({ status: "void", voidReason: "TRADE_ITEM_LOCKED" });
    const gift = await api("POST", "/api/v1/marketplace/trades", {
      headers: { ...f.auth, "idempotency-key": randomUUID() },
      json: { recipientId: buyer.id, offeredItems: [item] },
    });
    locked(gift, "TRADE_ITEM_LOCKED");
    expect(errorOf(gift).details?.map((d) => d.path)).toEqual(["body.offeredItems.0"]);
    expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: `0x${"ab".repeat(20)}` } })).status).toBe(200);
    locked(await api("POST", "/api/v1/nfts/mints", { headers: f.auth, json: { collectibleId: item } }));
    // Another challenge asking for the same card: the item counts toward one entry only.
    const other = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] });
    locked(await enter(f, other.id, [item]));
    const shown = (await detail(f, other.id)).body.data.progress.cards.find((x: { cardId: string }) => x.cardId === cardA.id).owned[0];
    expect(shown).toMatchObject({ eligible: false, inEntry: false, lockedBy: { challengeId: c.id, title: c.title } });
    expect(await db().collectible.findUniqueOrThrow({ where: { id: item } })).toMatchObject({ ownerId: f.id });

    const out = await withdraw(f, c.id);
    expect(out.status, out.text).toBe(200);
    expect(out.body.data.progress.entry).toBeNull();
    expect(await db().challengeEntryItem.count({ where: { collectibleId: item } })).toBe(0);
    expect((await enter(f, other.id, [item])).status).toBe(200);
    expect(await db().challengeEntryItem.count({ where: { collectibleId: item } })).toBe(1);
    expect((await withdraw(f, other.id)).status).toBe(200);
    expect((await list(f, item)).status).toBe(201);
  });

  it("staff cannot refund a sale whose item the buyer locked in an entry", async () => {
    const seller = await fan();
    const buyer = await fan(2_000);
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] });
    const item = await cardA.give(seller.id);
    const listing = (await list(seller, item)).body.data.listing;
    const bought = await api("POST", `/api/v1/marketplace/listings/${listing.id}/buy`, { headers: { ...buyer.auth, "idempotency-key": randomUUID() } });
    expect(bought.status, bought.text).toBe(200);
    expect((await enter(buyer, c.id, [item])).status).toBe(200);
    const refund = await api("POST", `/api/admin/marketplace/listings/${listing.id}/refund`, { headers: staff.auth });
    expect(refund.status, refund.text).toBe(409);
    expect(errorOf(refund).code).toBe("ITEM_LOCKED");
    expect(await db().collectible.findUniqueOrThrow({ where: { id: item } })).toMatchObject({ ownerId: buyer.id });
    expect((await db().listing.findUniqueOrThrow({ where: { id: listing.id } })).refundedAt).toBeNull();
    expect((await withdraw(buyer, c.id)).status).toBe(200);
    expect((await api("POST", `/api/admin/marketplace/listings/${listing.id}/refund`, { headers: staff.auth })).status).toBe(200);
    expect(await db().collectible.findUniqueOrThrow({ where: { id: item } })).toMatchObject({ ownerId: seller.id });
  });

  it("a listed or minted item cannot go in an entry", async () => {
    const f = await fan();
    const c = await createChallenge();
    const listed = await cardA.give(f.id);
    expect((await list(f, listed)).status).toBe(201);
    expect(errorOf(await enter(f, c.id, [listed])).code).toBe("ENTRY_ITEM_LISTED");
    const minted = await cardA.give(f.id);
    expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: `0x${"cd".repeat(20)}` } })).status).toBe(200);
    expect((await api("POST", "/api/v1/nfts/mints", { headers: f.auth, json: { collectibleId: minted } })).status).toBe(201);
    expect(errorOf(await enter(f, c.id, [minted])).code).toBe("ENTRY_ITEM_MINTED");
  });

  it("the end of the challenge unlocks its entries' items; the seed is revealed; no more entries", async () => {
    const f = await fan();
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] });
    const item = await cardA.give(f.id);
    const kept = await cardA.give(f.id);
    expect((await enter(f, c.id, [item])).status).toBe(200);
    const next = await createChallenge();
    expect(errorOf(await list(f, item)).code).toBe("ITEM_LOCKED");
    await endNow(c.id);
    const ended = (await detail(f, c.id)).body.data;
    expect(ended.challenge.status).toBe("ended");
    expect(createHash("sha256").update(Buffer.from(ended.challenge.fairness.seed, "hex")).digest("hex")).toBe(c.fairness.seedHash);
    expect(errorOf(await enter(f, c.id, [item])).code).toBe("CHALLENGE_ENDED");
    expect(errorOf(await withdraw(f, c.id)).code).toBe("CHALLENGE_ENDED");
    // Unlocked: it goes in another challenge's entry (taking the lock slot over), then out, then on the market.
    expect((await enter(f, next.id, [item])).status).toBe(200);
    expect(await db().challengeEntryItem.findMany({ where: { collectibleId: item }, select: { challengeId: true, lockedItemId: true } })).toEqual(
      expect.arrayContaining([
        { challengeId: c.id, lockedItemId: null },
        { challengeId: next.id, lockedItemId: item },
      ]),
    );
    await endNow(next.id);
    expect((await list(f, item)).status).toBe(201);
    expect((await list(f, kept)).status).toBe(201);
  });
});

describe("concurrency", () => {
  it("concurrent entries of two challenges with the same item: one wins, every round", async () => {
    for (let round = 0; round < 8; round++) {
      const f = await fan();
      const [c1, c2] = [
        await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] }),
        await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }] }),
      ];
      const item = await cardA.give(f.id);
      const res = await Promise.all([enter(f, c1.id, [item]), enter(f, c2.id, [item]), enter(f, c1.id, [item]), enter(f, c2.id, [item])]);
      const won = res.filter((r) => r.status === 200);
      const lost = res.filter((r) => r.status !== 200);
      // Both requests to the winning challenge succeed (the same entry); both to the other are refused.
      expect(won.length, res.map((r) => r.text).join("\n")).toBe(2);
      expect(lost.map((r) => errorOf(r).code)).toEqual(["ITEM_LOCKED", "ITEM_LOCKED"]);
      const rows = await db().challengeEntryItem.findMany({ where: { collectibleId: item } });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.lockedItemId).toBe(item);
    }
  });

  it("concurrent completions of one collector grant one reward", async () => {
    const f = await fan();
    const c = await createChallenge({ cards: [{ cardId: cardA.id }, { cardId: cardB.id }], reward: { cardId: prize.id, supply: 5, rep: 30 } });
    const a = [await cardA.give(f.id), await cardA.give(f.id)];
    const b = [await cardB.give(f.id), await cardB.give(f.id)];
    const rep0 = await repOf(f.id);
    const sets = Array.from({ length: 20 }, (_, i) => [a[i % 2]!, b[Math.floor(i / 2) % 2]!]);
    const res = await Promise.all(sets.map((s) => enter(f, c.id, s)));
    expect(
      res.every((r) => r.status === 200 || errorOf(r).code === "ENTRY_COMPLETED"),
      res.map((r) => r.text).join("\n"),
    ).toBe(true);
    expect(res.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(await db().challengeReward.count({ where: { challengeId: c.id } })).toBe(1);
    expect(await db().collectible.count({ where: { cardId: prize.id, ownerId: f.id } })).toBe(1);
    expect(await db().repEntry.count({ where: { userId: f.id, grantKey: `challenge:${c.id}` } })).toBe(1);
    expect(await repOf(f.id)).toBe(rep0 + 30);
    expect((await db().challenge.findUniqueOrThrow({ where: { id: c.id } })).completions).toBe(1);
    expect(await db().challengeEntryItem.count({ where: { challengeId: c.id } })).toBe(2);
  });

  it("reward serials follow the committed order: concurrent completers, verified with the revealed seed", async () => {
    const c = await createChallenge({ cards: [{ cardId: cardA.id }], reward: { cardId: prize.id, supply: 5 } });
    const fans = await Promise.all(Array.from({ length: 7 }, () => fan()));
    const items = await Promise.all(fans.map((f) => cardA.give(f.id)));
    const res = await Promise.all(fans.map((f, i) => enter(f, c.id, [items[i]!])));
    expect(res.map((r) => r.status)).toEqual(fans.map(() => 200));
    const rewards = await db().challengeReward.findMany({ where: { challengeId: c.id }, orderBy: { rank: "asc" } });
    expect(rewards.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rewards.slice(5).map((r) => [r.serial, r.collectibleId])).toEqual([
      [null, null],
      [null, null],
    ]);
    const first = c.reward.firstSerial!;
    expect(
      rewards
        .slice(0, 5)
        .map((r) => r.serial!)
        .sort((x, y) => x - y),
    ).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    for (const r of rewards.slice(0, 5)) {
      expect(await db().collectible.findUniqueOrThrow({ where: { id: r.collectibleId! } })).toMatchObject({
        ownerId: r.userId,
        serial: r.serial,
        cardId: prize.id,
      });
    }
    expect((await detail(fans[0]!, c.id)).body.data.challenge.fairness.seed).toBeNull();
    await endNow(c.id);
    const seed = (await detail(null, c.id)).body.data.challenge.fairness.seed as string;
    const challenge = { id: c.id, seedHash: c.fairness.seedHash, firstSerial: first, rewardSupply: 5 };
    expect(verifyRewardSerials(seed, challenge, rewards)).toBe(true);
    const swapped = rewards.map((r, i) => (i < 2 ? { ...r, serial: rewards[1 - i]!.serial } : r));
    expect(verifyRewardSerials(seed, challenge, swapped)).toBe(false);
  });
});
