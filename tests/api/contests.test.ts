import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard, type Res } from "../helpers";

// Contests with owned cards: lineup rules (exactly N owned cards, one captain, positions, a rarity cap, covered
// players), the lock at kick-off (and a kick-off moved earlier), card locks against listing, offers, trades and mints,
// one unsettled lineup per card under concurrency, settlement once under two concurrent crons, deterministic ties,
// re-settlement of amended stats with compensating Rep entries, void slots. Every race is run concurrently.

type Fan = Awaited<ReturnType<typeof fan>>;

const staff = newUser({ admin: true });
const hour = 3_600_000;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/contests-settle", { headers: { authorization: `Bearer ${cronSecret()}` } });

/** A league of the test's own (archived: no list shows it): two teams, players at QB, RB and WR on each, a third team's QB. */
async function world(games = 1) {
  const key = randomUUID().slice(0, 8);
  const leagueId = `lg_ct_${key}`;
  const archivedAt = new Date();
  await db().league.create({ data: { id: leagueId, slug: `ct-${key}`, name: `Contest ${key}`, sport: "football", archivedAt } });
  const teams = ["h", "a", "x", "y"].map((t) => `tm_ct_${key}_${t}`);
  for (const id of teams) await db().team.create({ data: { id, slug: id.replaceAll("_", "-"), name: `Team ${id}`, leagueId, archivedAt } });
  const player = async (team: number, position: string) => {
    const id = `pl_ct_${key}_${team}_${position}`;
    await db().player.create({ data: { id, teamId: teams[team]!, name: `${position} ${key}`, position } });
    const cardId = `cc_ct_${key}_${team}_${position}`;
    await db().collectibleCard.create({
      data: {
        id: cardId,
        kind: "player",
        teamId: teams[team]!,
        playerId: id,
        name: `${position} ${team}`,
        rarity: position === "QB" ? "epic" : "common",
        editionSize: 1_000,
      },
    });
    return { id, cardId };
  };
  const p = {
    qb: await player(0, "QB"),
    rb: await player(0, "RB"),
    wr: await player(1, "WR"),
    qb2: await player(1, "QB"),
    far: await player(2, "QB"),
    late: await player(3, "RB"),
  };
  const gameIds: string[] = [];
  for (let i = 0; i < games; i++) {
    const id = `gm_ct_${key}_${i}`;
    await db().game.create({
      data: {
        id,
        leagueId,
        homeTeamId: teams[i === 0 ? 0 : 3]!,
        awayTeamId: teams[i === 0 ? 1 : 2]!,
        startsAt: new Date(Date.now() + (2 + i) * hour),
        status: "scheduled",
      },
    });
    gameIds.push(id);
  }
  // The next serial of the card's edition, taken as a pack opening takes it (so an opening never meets a copy made here).
  const give = async (cardId: string, ownerId: string) => {
    const { mintedCount: serial } = await db().collectibleCard.update({ where: { id: cardId }, data: { mintedCount: { increment: 1 } } });
    return (await db().collectible.create({ data: { cardId, serial, ownerId } })).id;
  };
  return { p, gameIds, give };
}
type World = Awaited<ReturnType<typeof world>>;

async function createContest(w: World, json: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/admin/contests", {
    headers: staff.auth,
    json: {
      title: `Matchday ${randomUUID().slice(0, 6)}`,
      gameIds: w.gameIds,
      slots: ["QB", "RB/WR", "*"],
      rarityCap: { epic: 1 },
      prizes: [100, 50, 20],
      ...json,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.contest as { id: string; title: string; lockAt: string; status: string; lineupSize: number };
}

/** The caller's three cards of one world: QB (epic), RB, WR, each the caller's own copy. */
async function squad(w: World, f: Fan) {
  return { qb: await w.give(w.p.qb.cardId, f.id), rb: await w.give(w.p.rb.cardId, f.id), wr: await w.give(w.p.wr.cardId, f.id) };
}
type Squad = Awaited<ReturnType<typeof squad>>;
const lineupOf = (s: Squad, captain: keyof Squad = "qb") => [
  { collectibleId: s.qb, slot: 0, captain: captain === "qb" },
  { collectibleId: s.rb, slot: 1, captain: captain === "rb" },
  { collectibleId: s.wr, slot: 2, captain: captain === "wr" },
];
const put = (f: Fan, contestId: string, cards: unknown) => api("PUT", `/api/v1/contests/${contestId}/lineup`, { headers: f.auth, json: { cards } });
const withdraw = (f: Fan, contestId: string) => api("DELETE", `/api/v1/contests/${contestId}/lineup`, { headers: f.auth });
const board = (f: Fan | null, contestId: string, query = "") => api("GET", `/api/v1/contests/${contestId}/leaderboard${query}`, { headers: f?.auth ?? {} });
const repOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const expectError = (res: Res, status: number, code: string, path?: string) => {
  expect(res.status, res.text).toBe(status);
  expect(errorOf(res).code).toBe(code);
  if (path) expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
};
const finish = (w: World) => db().game.updateMany({ where: { id: { in: w.gameIds } }, data: { status: "final", startsAt: new Date(Date.now() - 3 * hour) } });
const stat = (
  gameId: string,
  playerId: string,
  line: Partial<Record<"minutes" | "goals" | "assists" | "shots" | "saves" | "yellowCards" | "redCards", number>>,
) =>
  db().gamePlayerStat.upsert({
    where: { gameId_playerId: { gameId, playerId } },
    create: { gameId, playerId, teamId: "x", minutes: 90, ...line },
    update: line,
  });

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

describe("settlement", () => {
  it("scores from the official lines once the games are final, ranks with deterministic ties, pays Rep once under two concurrent crons, unlocks", async () => {
    const sw = await world();
    const c = await createContest(sw);
    const [fa, fb, fc] = [await fan(), await fan(), await fan()];
    const [sa, sb, sc] = [await squad(sw, fa), await squad(sw, fb), await squad(sw, fc)];
    // B submits first but changes its lineup after A: its submission time is the later one.
    expect((await put(fb, c.id, lineupOf(sb, "rb"))).status).toBe(200);
    expect((await put(fa, c.id, lineupOf(sa, "rb"))).status).toBe(200);
    expect((await put(fb, c.id, lineupOf(sb, "wr"))).status).toBe(200);
    expect((await put(fc, c.id, lineupOf(sc, "qb"))).status).toBe(200);
    expect(await cron()).toMatchObject({ status: 200 });
    expect((await db().contest.findUniqueOrThrow({ where: { id: c.id } })).settledAt).toBeNull();

    // QB 90' + 1 goal = 2 + 6 + 2 shots = 10; RB 90' 1 assist - yellow = 2 + 4 - 1 = 5; WR 30' 1 assist = 1 + 4 = 5.
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, assists: 1, yellowCards: 1 });
    await stat(sw.gameIds[0]!, sw.p.wr.id, { minutes: 30, assists: 1 });
    await finish(sw);
    const before = await Promise.all([fa, fb, fc].map((f) => repOf(f.id)));
    const runs = await Promise.all([cron(), cron()]);
    for (const r of runs) expect(r.status, r.text).toBe(200);

    // C: 10*2 + 5 + 5 = 30 (captain 20); A: 10 + 5*2 + 5 = 25 (captain 10); B: 10 + 5 + 5*2 = 25 (captain 10), submitted later.
    const lb = await board(fb, c.id);
    expect(lb.status, lb.text).toBe(200);
    expect(
      lb.body.data.standings.map((x: { user: { id: string }; rank: number; score: number; captainScore: number; prize: number }) => [
        x.user.id,
        x.rank,
        x.score,
        x.captainScore,
        x.prize,
      ]),
    ).toEqual([
      [fc.id, 1, 30, 20, 100],
      [fa.id, 2, 25, 10, 50],
      [fb.id, 3, 25, 10, 20],
    ]);
    expect(lb.body.data.me).toMatchObject({ rank: 3, score: 25 });
    expect(await Promise.all([fa, fb, fc].map((f) => repOf(f.id)))).toEqual([before[0]! + 50, before[1]! + 20, before[2]! + 100]);
    expect(await db().repEntry.count({ where: { grantKey: `contest:${c.id}:v1` } })).toBe(3);
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 1 });

    // Keyset pages by rank.
    const first = await board(null, c.id, "?limit=2");
    expect(first.body.data.standings.map((x: { rank: number }) => x.rank)).toEqual([1, 2]);
    expect(first.body.data.me).toBeNull();
    const next = await board(null, c.id, `?limit=2&cursor=${first.body.data.nextCursor}`);
    expect(next.body.data.standings.map((x: { rank: number }) => x.rank)).toEqual([3]);
    expect(next.body.data.nextCursor).toBeUndefined();
    expect((await board(null, c.id, "?cursor=bad!")).status).toBe(400);

    // Unlocked: the card can be listed now; a third cron run changes nothing.
    const listed = await api("POST", "/api/v1/marketplace/listings", { headers: fa.auth, json: { kind: "fixed", collectibleId: sa.rb, price: 500 } });
    expect(listed.status, listed.text).toBe(201);
    await cron();
    expect(await db().repEntry.count({ where: { targetId: c.id } })).toBe(3);
    const detail = await api("GET", `/api/v1/contests/${c.id}`, { headers: fc.auth });
    expect(detail.body.data).toMatchObject({ contest: { status: "settled", settledVersion: 1 }, lineup: { rank: 1, score: 30, prize: 100 } });
  });

  it("re-settles amended stats: new ranks, and compensating entries (a credit under a new key, a debit), never an edit", async () => {
    const sw = await world();
    const c = await createContest(sw);
    const [fa, fb, fc] = [await fan(), await fan(), await fan()];
    const [sa, sb, sc] = [await squad(sw, fa), await squad(sw, fb), await squad(sw, fc)];
    expect((await put(fa, c.id, lineupOf(sa, "rb"))).status).toBe(200);
    expect((await put(fb, c.id, lineupOf(sb, "wr"))).status).toBe(200);
    expect((await put(fc, c.id, lineupOf(sc, "qb"))).status).toBe(200);
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, assists: 1, yellowCards: 1 });
    await stat(sw.gameIds[0]!, sw.p.wr.id, { minutes: 30, assists: 1 });
    await finish(sw);
    await cron();
    const entriesBefore = await db().repEntry.findMany({ where: { targetId: c.id }, orderBy: { id: "asc" } });
    expect(entriesBefore.map((e) => [e.userId, Number(e.amount)]).sort()).toEqual(
      [
        [fa.id, 50],
        [fb.id, 20],
        [fc.id, 100],
      ].sort(),
    );
    const rep = await Promise.all([fa, fb, fc].map((f) => repOf(f.id)));

    // The feed amends the RB's line: 2 more goals (+12). A: 10 + 17*2 + 5 = 49; C: 20 + 17 + 5 = 42; B: 10 + 17 + 10 = 37.
    await stat(sw.gameIds[0]!, sw.p.rb.id, { goals: 2 });
    const runs = await Promise.all([cron(), cron()]);
    for (const r of runs) expect(r.status).toBe(200);
    const lb = await board(null, c.id);
    expect(lb.body.data.standings.map((x: { user: { id: string }; score: number; prize: number }) => [x.user.id, x.score, x.prize])).toEqual([
      [fa.id, 49, 100],
      [fc.id, 42, 50],
      [fb.id, 37, 20],
    ]);
    expect(await Promise.all([fa, fb, fc].map((f) => repOf(f.id)))).toEqual([rep[0]! + 50, rep[1]!, rep[2]! - 50]);
    const entries = await db().repEntry.findMany({ where: { targetId: c.id }, orderBy: { id: "asc" } });
    // The first settlement's entries untouched; one credit and one debit appended.
    expect(entries.slice(0, 3)).toEqual(entriesBefore);
    expect(
      entries
        .slice(3)
        .map((e) => [e.userId, Number(e.amount), e.grantKey])
        .sort(),
    ).toEqual(
      [
        [fa.id, 50, `contest:${c.id}:v2`],
        [fc.id, -50, `contest:${c.id}:v2:reversal`],
      ].sort(),
    );
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 2 });
    await cron();
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 2 });
  });

  it("a card that left its owner before settlement scores 0 in its slot; players of a canceled game score 0", async () => {
    const sw = await world(2);
    const c = await createContest(sw, { slots: ["QB", "RB", "*"], rarityCap: {}, prizes: [10] });
    const f = await fan();
    const s = await squad(sw, f);
    // The RB of the second game (teams 3 vs 2), in the "*" slot instead of the WR.
    const late = await sw.give(sw.p.late.cardId, f.id);
    const res = await put(f, c.id, [
      { collectibleId: s.qb, slot: 0, captain: true },
      { collectibleId: s.rb, slot: 1 },
      { collectibleId: late, slot: 2 },
    ]);
    expect(res.status, res.text).toBe(200);
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, goals: 1 });
    await stat(sw.gameIds[1]!, sw.p.late.id, { minutes: 90, goals: 3 });
    // A staff correction moves the RB card away (bypassing the lock, as a refund could).
    const other = await fan();
    await db().collectible.update({ where: { id: s.rb }, data: { ownerId: other.id } });
    await db().game.update({ where: { id: sw.gameIds[0]! }, data: { status: "final", startsAt: new Date(Date.now() - 3 * hour) } });
    await cron();
    expect((await db().contest.findUniqueOrThrow({ where: { id: c.id } })).settledAt).toBeNull();
    await db().game.update({ where: { id: sw.gameIds[1]! }, data: { status: "canceled" } });
    await cron();
    const mine = await api("GET", `/api/v1/contests/${c.id}/lineup`, { headers: f.auth });
    // QB captain 10 * 2; the RB's slot void; the canceled game's RB 0.
    expect(mine.body.data.lineup).toMatchObject({ score: 20, captainScore: 20, rank: 1, prize: 10 });
    expect(mine.body.data.lineup.cards.map((x: { void: boolean }) => x.void)).toEqual([false, true, false]);
  });
});

describe("the contests cron and the documents", () => {
  it("is scheduled every minute in vercel.json, documented only internally; every contest path is in the public document", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/contests-settle", schedule: "* * * * *" });
    const internal = await api("GET", "/api/admin/openapi.json", { headers: staff.auth });
    expect(internal.body.paths["/api/cron/contests-settle"].get.description).toMatch(/SKIP LOCKED/);
    expect(Object.keys(internal.body.paths["/api/admin/contests"])).toEqual(["post"]);
    const publicDoc = await api("GET", "/api/openapi.json");
    expect(publicDoc.body.paths["/api/cron/contests-settle"]).toBeUndefined();
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests"])).toEqual(["get"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}"])).toEqual(["get"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}/lineup"]).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}/leaderboard"])).toEqual(["get"]);
    expect((await api("GET", "/api/cron/contests-settle")).status).toBe(401);
  });
});
