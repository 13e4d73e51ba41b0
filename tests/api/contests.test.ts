import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, testCard, type Res } from "../helpers";
import { board, createContest, type Fan, hour, lineupOf, put, squad, type Squad, staff, type World, world } from "./contests-fixtures";

// Contests with owned cards: creating and reading them, lineup rules (exactly N owned cards, one captain, positions, a
// rarity cap, covered players), the lock at kick-off (and a kick-off moved earlier), one unsettled lineup per card
// under concurrency, card locks against listing, offers, trades and mints. Every race is run concurrently. Settlement
// is in contests-settlement.test.ts.

const withdraw = (f: Fan, contestId: string) => api("DELETE", `/api/v1/contests/${contestId}/lineup`, { headers: f.auth });
const expectError = (res: Res, status: number, code: string, path?: string) => {
  expect(res.status, res.text).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (path) expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
};

let w: World;
beforeAll(async () => {
  w = await world();
});

describe("creating and reading contests", () => {
  it("staff create one over scheduled games: the lock is the first kick-off; listed as open; bad input is a 4xx naming the field", async () => {
    const c = await createContest(w);
    const game = await db().game.findUniqueOrThrow({ where: { id: w.gameIds[0]! } });
    expect(c).toMatchObject({ status: "open", lineupSize: 3, lockAt: game.startsAt.toISOString() });
    expect(await db().auditEntry.count({ where: { targetType: "contest", targetId: c.id, action: "contest.create" } })).toBe(1);
    const open = await api("GET", "/api/v1/contests?status=open&limit=50");
    expect(open.body.data.contests.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await api("GET", "/api/v1/contests?status=settled&limit=50")).body.data.contests.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const detail = await api("GET", `/api/v1/contests/${c.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ contest: { id: c.id, games: [{ id: w.gameIds[0] }] }, lineup: null });

    const bad = async (json: Record<string, unknown>, path: string) => {
      const res = await api("POST", "/api/admin/contests", {
        headers: staff.auth,
        json: { title: "Bad", gameIds: w.gameIds, slots: ["QB"], prizes: [10], ...json },
      });
      expectError(res, 400, "VALIDATION_ERROR", path);
    };
    await bad({ gameIds: ["gm_nope"] }, "body.gameIds.0");
    await bad({ gameIds: [] }, "body.gameIds");
    await bad({ slots: ["Q B"] }, "body.slots.0");
    await bad({ prizes: [-1] }, "body.prizes.0");
    await bad({ rarityCap: { mythic: 1 } }, "body.rarityCap.mythic");
    await bad({ lockAt: new Date(Date.now() + 10 * hour).toISOString() }, "body.lockAt");
    expect((await api("POST", "/api/admin/contests", { headers: (await fan()).auth, json: {} })).status).toBe(403);
    expectError(await api("GET", `/api/v1/contests/${randomUUID()}`), 404, "NOT_FOUND");
    expect((await api("GET", "/api/v1/contests/nope")).status).toBe(400);
    expect((await api("GET", "/api/v1/contests?cursor=%%%")).status).toBe(400);
  });
});

describe("lineups", () => {
  it("checks every rule: owned, exactly one captain, exactly N cards, positions, the rarity cap, covered players", async () => {
    const f = await fan();
    const other = await fan();
    const c = await createContest(w);
    const s = await squad(w, f);
    const theirs = await w.give(w.p.rb.cardId, other.id);
    const qb2 = await w.give(w.p.qb2.cardId, f.id);
    const far = await w.give(w.p.far.cardId, f.id);
    const team = testCard("Contest team card", "common", 100);
    const teamCard = await team.give(f.id);

    const twoCaptains = lineupOf(s).map((x) => ({ ...x, captain: x.slot !== 2 }));
    expectError(await put(f, c.id, twoCaptains), 400, "VALIDATION_ERROR", "body.cards.1.captain");
    expectError(
      await put(
        f,
        c.id,
        lineupOf(s).map((x) => ({ ...x, captain: false })),
      ),
      400,
      "VALIDATION_ERROR",
      "body.cards",
    );
    expectError(await put(f, c.id, [...lineupOf(s).slice(0, 2), { collectibleId: s.qb, slot: 2 }]), 400, "VALIDATION_ERROR", "body.cards.2.collectibleId");
    expectError(await put(f, c.id, [...lineupOf(s).slice(0, 2), { collectibleId: s.wr, slot: 1 }]), 400, "VALIDATION_ERROR", "body.cards.2.slot");
    expectError(await put(f, c.id, [lineupOf(s)[0], lineupOf(s)[1], { collectibleId: theirs, slot: 2 }]), 404, "NOT_FOUND", "body.cards.2.collectibleId");
    expectError(await put(f, c.id, [lineupOf(s)[0], lineupOf(s)[1], { collectibleId: randomUUID(), slot: 2 }]), 404, "NOT_FOUND", "body.cards.2.collectibleId");
    expectError(await put(f, c.id, lineupOf(s).slice(0, 2)), 422, "LINEUP_SIZE", "body.cards");
    // A QB in the RB/WR slot.
    expectError(
      await put(f, c.id, [
        { collectibleId: s.rb, slot: 0, captain: true },
        { collectibleId: s.qb, slot: 1 },
        { collectibleId: s.wr, slot: 2 },
      ]),
      422,
      "LINEUP_POSITION",
      "body.cards.0.slot",
    );
    // Two epic QBs (cap 1).
    expectError(await put(f, c.id, [lineupOf(s)[0], lineupOf(s)[1], { collectibleId: qb2, slot: 2 }]), 422, "LINEUP_RARITY_CAP", "body.cards.2.collectibleId");
    // A player whose team is not in the covered games, and a team card.
    expectError(
      await put(f, c.id, [lineupOf(s)[0], lineupOf(s)[1], { collectibleId: far, slot: 2 }]),
      422,
      "LINEUP_PLAYER_NOT_COVERED",
      "body.cards.2.collectibleId",
    );
    expectError(
      await put(f, c.id, [lineupOf(s)[0], lineupOf(s)[1], { collectibleId: teamCard, slot: 2 }]),
      422,
      "LINEUP_PLAYER_NOT_COVERED",
      "body.cards.2.collectibleId",
    );
    expect(await db().contestLineup.count({ where: { contestId: c.id } })).toBe(0);
    expect((await api("PUT", `/api/v1/contests/${c.id}/lineup`, { json: { cards: lineupOf(s) } })).status).toBe(401);

    const ok = await put(f, c.id, lineupOf(s, "rb"));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.lineup).toMatchObject({ captainId: s.rb, score: null, rank: null, prize: 0 });
    expect(ok.body.data.lineup.cards.map((x: { slot: number; position: string; captain: boolean }) => [x.slot, x.position, x.captain])).toEqual([
      [0, "QB", false],
      [1, "RB", true],
      [2, "WR", false],
    ]);
    expect(ok.body.data.contest.lineupCount).toBe(1);
    const mine = await api("GET", `/api/v1/contests/${c.id}/lineup`, { headers: f.auth });
    expect(mine.body.data.lineup.captainId).toBe(s.rb);
    expectError(await api("GET", `/api/v1/contests/${c.id}/lineup`, { headers: other.auth }), 404, "NOT_FOUND");
    expect(await db().contestLineupCard.count({ where: { lockedItemId: { in: [s.qb, s.rb, s.wr] } } })).toBe(3);

    // A new PUT replaces the cards: the one left out is unlocked.
    const wr2 = await w.give(w.p.wr.cardId, f.id);
    const changed = await put(f, c.id, [...lineupOf(s, "rb").slice(0, 2), { collectibleId: wr2, slot: 2 }]);
    expect(changed.status, changed.text).toBe(200);
    expect(await db().contestLineupCard.count({ where: { lockedItemId: s.wr } })).toBe(0);
    expect(await db().contestLineupCard.count({ where: { lockedItemId: wr2 } })).toBe(1);
    expect(changed.body.data.contest.lineupCount).toBe(1);

    // Withdrawal before the lock unlocks the cards at once.
    const out = await withdraw(f, c.id);
    expect(out.status, out.text).toBe(200);
    expect(out.body.data).toMatchObject({ lineup: null, contest: { lineupCount: 0 } });
    expect(await db().contestLineupCard.count({ where: { collectibleId: { in: [s.qb, s.rb, s.wr, wr2] } } })).toBe(0);
    expectError(await withdraw(f, c.id), 404, "NOT_FOUND");
  });

  it("locks at kick-off, and at a kick-off the sync moved earlier: no PUT or DELETE after it", async () => {
    const lw = await world();
    const f = await fan();
    const c = await createContest(lw);
    const s = await squad(lw, f);
    expect((await put(f, c.id, lineupOf(s))).status).toBe(200);
    // The sync moves the kick-off to a minute ago (the game still "scheduled"): the contest is locked now.
    await db().game.update({ where: { id: lw.gameIds[0]! }, data: { startsAt: new Date(Date.now() - 60_000) } });
    expectError(await put(f, c.id, lineupOf(s, "wr")), 409, "CONTEST_LOCKED");
    expectError(await withdraw(f, c.id), 409, "CONTEST_LOCKED");
    expect((await api("GET", `/api/v1/contests/${c.id}`)).body.data.contest.status).toBe("live");
    expect((await api("GET", "/api/v1/contests?status=live&limit=50")).body.data.contests.map((x: { id: string }) => x.id)).toContain(c.id);
    // A game that went live before its set kick-off locks too.
    const lw2 = await world();
    const c2 = await createContest(lw2);
    await db().game.update({ where: { id: lw2.gameIds[0]! }, data: { status: "live" } });
    expectError(await put(f, c2.id, lineupOf(await squad(lw2, f))), 409, "CONTEST_LOCKED");
    expectError(await board(f, c.id), 409, "CONTEST_NOT_SETTLED");
  });

  it("a card is in one unsettled lineup at a time: two concurrent PUTs into two contests, one wins", async () => {
    const f = await fan();
    const a = await createContest(w);
    const b = await createContest(w);
    const s = await squad(w, f);
    const [ra, rb] = await Promise.all([put(f, a.id, lineupOf(s)), put(f, b.id, lineupOf(s))]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const lost = ra.status === 409 ? ra : rb;
    const won = ra.status === 200 ? a : b;
    expect(errorOf(lost).code).toBe("ITEM_LOCKED");
    expect(JSON.stringify(errorOf(lost))).toContain(won.id);
    expect(await db().contestLineupCard.count({ where: { collectibleId: s.qb } })).toBe(1);
  });
});

describe("concurrent entries (issue 44: a shared lock upgraded to count a lineup deadlocked, 40P01 answered 500)", () => {
  const contestCount = async (contestId: string) => (await db().contest.findUniqueOrThrow({ where: { id: contestId } })).lineupCount;
  const statuses = (list: Res[]) => list.map((r) => (r.status >= 500 ? `${r.status} ${r.text}` : r.status));

  it("10 fans entering one new contest at once all succeed, in each of three rounds; lineupCount is exact", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await createContest(w);
      const fans = await Promise.all(Array.from({ length: 10 }, () => fan()));
      const squads = await Promise.all(fans.map((f) => squad(w, f)));
      const res = await Promise.all(fans.map((f, i) => put(f, c.id, lineupOf(squads[i]!))));
      expect(statuses(res)).toEqual(Array(10).fill(200));
      expect(await db().contestLineup.count({ where: { contestId: c.id } })).toBe(10);
      expect(await contestCount(c.id)).toBe(10);
      expect((await api("GET", `/api/v1/contests/${c.id}`)).body.data.contest.lineupCount).toBe(10);
      expect(await db().contestLineupCard.count({ where: { contestId: c.id, lockedItemId: { not: null } } })).toBe(30);
    }
  });

  it("one fan double-submitting: 40 concurrent PUTs all succeed, one lineup counted, its three cards locked once", async () => {
    const f = await fan();
    const c = await createContest(w);
    const s = await squad(w, f);
    const captains: (keyof Squad)[] = ["qb", "rb", "wr"];
    const res = await Promise.all(Array.from({ length: 40 }, (_, i) => put(f, c.id, lineupOf(s, captains[i % 3]))));
    expect(statuses(res)).toEqual(Array(40).fill(200));
    for (const r of res) expect(r.body.data.contest.lineupCount).toBe(1);
    expect(await db().contestLineup.count({ where: { contestId: c.id } })).toBe(1);
    expect(await contestCount(c.id)).toBe(1);
    expect(await db().contestLineupCard.count({ where: { contestId: c.id } })).toBe(3);
    expect(await db().contestLineupCard.count({ where: { lockedItemId: { in: [s.qb, s.rb, s.wr] } } })).toBe(3);
  });

  it("withdrawals, new entries and one fan's repeated withdrawal at once: no 5xx, lineupCount exact", async () => {
    const c = await createContest(w);
    const leaving = await Promise.all(Array.from({ length: 6 }, () => fan()));
    const leavingSquads = await Promise.all(leaving.map((f) => squad(w, f)));
    for (const [i, f] of leaving.entries()) expect((await put(f, c.id, lineupOf(leavingSquads[i]!))).status).toBe(200);
    const twice = await fan();
    expect((await put(twice, c.id, lineupOf(await squad(w, twice)))).status).toBe(200);
    const joining = await Promise.all(Array.from({ length: 6 }, () => fan()));
    const joiningSquads = await Promise.all(joining.map((f) => squad(w, f)));
    expect(await contestCount(c.id)).toBe(7);

    const [out, again, joined] = await Promise.all([
      Promise.all(leaving.map((f) => withdraw(f, c.id))),
      Promise.all(Array.from({ length: 8 }, () => withdraw(twice, c.id))),
      Promise.all(joining.map((f, i) => put(f, c.id, lineupOf(joiningSquads[i]!)))),
    ]);
    expect(statuses(out)).toEqual(Array(6).fill(200));
    expect(statuses(joined)).toEqual(Array(6).fill(200));
    // The same fan's eight withdrawals: one withdraws, the others find no lineup.
    expect(statuses(again).sort()).toEqual([200, ...Array(7).fill(404)]);
    for (const r of again.filter((x) => x.status === 404)) expect(errorOf(r).code).toBe("NOT_FOUND");
    expect(await db().contestLineup.count({ where: { contestId: c.id } })).toBe(6);
    expect(await contestCount(c.id)).toBe(6);
    expect(await db().contestLineupCard.count({ where: { collectibleId: { in: leavingSquads.flatMap((s) => [s.qb, s.rb, s.wr]) } } })).toBe(0);
  });

  it("one fan's PUTs and DELETEs at once: each answers 200 (or 404 with no lineup to withdraw), and the count matches the lineups", async () => {
    const f = await fan();
    const c = await createContest(w);
    const s = await squad(w, f);
    const res = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? withdraw(f, c.id) : put(f, c.id, lineupOf(s)))));
    const puts = res.filter((_, i) => i % 2 === 0);
    const deletes = res.filter((_, i) => i % 2 === 1);
    expect(statuses(puts)).toEqual(Array(12).fill(200));
    for (const r of deletes) expect([200, 404], r.text).toContain(r.status);
    const lineups = await db().contestLineup.count({ where: { contestId: c.id } });
    expect(await contestCount(c.id)).toBe(lineups);
    expect(await db().contestLineupCard.count({ where: { contestId: c.id } })).toBe(3 * lineups);
  });
});

describe("card locks", () => {
  it("a card in a lineup cannot be listed, offered-and-accepted, traded, gifted, minted or put in a challenge entry (409 naming the contest)", async () => {
    const f = await fan();
    const buyer = await fan(5_000);
    const c = await createContest(w);
    const s = await squad(w, f);
    const item = s.rb;
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
    expect((await put(f, c.id, lineupOf(s))).status).toBe(200);

    const locked = (res: Res, code = "ITEM_LOCKED") => {
      expect(res.status, res.text).toBe(409);
      expect(errorOf(res).code).toBe(code);
      expect(JSON.stringify(errorOf(res))).toContain(c.id);
    };
    const listing = await api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId: item, price: 500 } });
    locked(listing);
    expect(errorOf(listing).message).toContain(c.title);
    locked(await api("POST", `/api/v1/marketplace/offers/${offer.body.data.offer.id}/accept`, { headers: f.auth }));
    locked(await api("POST", `/api/v1/marketplace/trades/${trade.body.data.trade.id}/accept`, { headers: f.auth }), "TRADE_ITEM_LOCKED");
    const gift = await api("POST", "/api/v1/marketplace/trades", {
      headers: { ...f.auth, "idempotency-key": randomUUID() },
      json: { recipientId: buyer.id, offeredItems: [item] },
    });
    locked(gift, "TRADE_ITEM_LOCKED");
    expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: `0x${"cd".repeat(20)}` } })).status).toBe(200);
    locked(await api("POST", "/api/v1/nfts/mints", { headers: f.auth, json: { collectibleId: item } }));
    const challenge = await api("POST", "/api/admin/challenges", {
      headers: staff.auth,
      json: {
        title: "Lock check",
        startsAt: new Date(Date.now() - hour).toISOString(),
        endsAt: new Date(Date.now() + hour).toISOString(),
        cards: [{ cardId: w.p.rb.cardId }],
        reward: { rep: 5 },
      },
    });
    expect(challenge.status, challenge.text).toBe(201);
    // The challenge's progress shows the card as held by the contest, not eligible.
    const progress = await api("GET", `/api/v1/engage/challenges/${challenge.body.data.challenge.id}`, { headers: f.auth });
    const copy = progress.body.data.progress.cards[0].owned.find((x: { collectible: { id: string } }) => x.collectible.id === item);
    expect(copy).toMatchObject({ eligible: false, lockedBy: null, lockedInContest: { contestId: c.id, title: c.title } });
    locked(await api("PUT", `/api/v1/engage/challenges/${challenge.body.data.challenge.id}/entry`, { headers: f.auth, json: { collectibleIds: [item] } }));
    expect(await db().collectible.findUniqueOrThrow({ where: { id: item } })).toMatchObject({ ownerId: f.id });
  });

  it("a listed or minted card cannot go in a lineup", async () => {
    const f = await fan();
    const c = await createContest(w);
    const s = await squad(w, f);
    const listing = await api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId: s.wr, price: 500 } });
    expect(listing.status, listing.text).toBe(201);
    expectError(await put(f, c.id, lineupOf(s)), 409, "ENTRY_ITEM_LISTED", "body.cards.2.collectibleId");
    expect((await api("PUT", "/api/v1/nfts/wallet", { headers: f.auth, json: { address: `0x${"ef".repeat(20)}` } })).status).toBe(200);
    expect((await api("POST", "/api/v1/nfts/mints", { headers: f.auth, json: { collectibleId: s.qb } })).status).toBe(201);
    const other = await w.give(w.p.wr.cardId, f.id);
    expectError(await put(f, c.id, [...lineupOf(s).slice(0, 2), { collectibleId: other, slot: 2 }]), 409, "ENTRY_ITEM_MINTED", "body.cards.0.collectibleId");
    expect(await db().contestLineup.count({ where: { contestId: c.id } })).toBe(0);
  });
});
