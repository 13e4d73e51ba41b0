import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, db, fan, newUser } from "../helpers";

// What the contests tests share (contests.test.ts, contests-settlement.test.ts): a league of a test's own with its
// players' cards, a contest over its games, a fan's squad of cards and a lineup of it, and the contest's routes.

export type Fan = Awaited<ReturnType<typeof fan>>;

export const staff = newUser({ admin: true });
export const hour = 3_600_000;

/** A league of the test's own (archived: no list shows it): two teams, players at QB, RB and WR on each, a third team's QB. */
export async function world(games = 1) {
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
export type World = Awaited<ReturnType<typeof world>>;

export async function createContest(w: World, json: Record<string, unknown> = {}) {
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
export async function squad(w: World, f: Fan) {
  return { qb: await w.give(w.p.qb.cardId, f.id), rb: await w.give(w.p.rb.cardId, f.id), wr: await w.give(w.p.wr.cardId, f.id) };
}
export type Squad = Awaited<ReturnType<typeof squad>>;
export const lineupOf = (s: Squad, captain: keyof Squad = "qb") => [
  { collectibleId: s.qb, slot: 0, captain: captain === "qb" },
  { collectibleId: s.rb, slot: 1, captain: captain === "rb" },
  { collectibleId: s.wr, slot: 2, captain: captain === "wr" },
];
export const put = (f: Fan, contestId: string, cards: unknown) => api("PUT", `/api/v1/contests/${contestId}/lineup`, { headers: f.auth, json: { cards } });
export const board = (f: Fan | null, contestId: string, query = "") =>
  api("GET", `/api/v1/contests/${contestId}/leaderboard${query}`, { headers: f?.auth ?? {} });
