import { beforeAll, describe, expect, it } from "vitest";
import { standingsResult } from "../../lib/core/leagues/schemas";
import { api, db, errorOf, newUser } from "../helpers";
import { addExtraLeagues, extra, invalid } from "./leagues-fixtures";

// GET /api/leagues/{leagueId}/standings (the seeded facts these tests rely on and the leagues they add are in
// leagues-fixtures.ts).

beforeAll(() => addExtraLeagues());

type Row = {
  position: number;
  team: { id: string; name: string };
  group: { scope: string; id: string; name: string };
  gamesPlayed: number;
  wins: number;
  losses: number;
  ties: number;
  overtimeLosses: number;
  points: number | null;
  winPct: number;
  gamesBack: number | null;
  scoreFor: number;
  scoreAgainst: number;
  scoreDifferential: number;
  streak: string | null;
  summary: string;
};
type Table = { scope: string; id: string; name: string; rows: Row[] };

/** Expected record of each team of a league, counted independently from the games table. */
async function recordsFromGames(leagueId: string) {
  const league = await db().league.findUniqueOrThrow({ where: { id: leagueId } });
  const games = await db().game.findMany({
    where: { leagueId, status: "final", season: league.season ?? undefined, homeScore: { not: null }, awayScore: { not: null } },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
  });
  const out = new Map<string, { gp: number; w: number; l: number; t: number; otDefeats: number; for: number; against: number; last: string[] }>();
  for (const g of games) {
    for (const [id, mine, theirs] of [
      [g.homeTeamId, g.homeScore!, g.awayScore!],
      [g.awayTeamId, g.awayScore!, g.homeScore!],
    ] as const) {
      const r = out.get(id) ?? { gp: 0, w: 0, l: 0, t: 0, otDefeats: 0, for: 0, against: 0, last: [] };
      r.gp++;
      r.for += mine;
      r.against += theirs;
      if (mine > theirs) {
        r.w++;
        r.last.push("W");
      } else if (mine === theirs) {
        r.t++;
        r.last.push("T");
      } else if (g.overtime) {
        r.otDefeats++;
        r.last.push("OTL");
      } else {
        r.l++;
        r.last.push("L");
      }
      out.set(id, r);
    }
  }
  return out;
}

/** Rows of one group are contiguous, positions run 1..n inside it, and the primary key never rises. */
function expectGrouped(rows: Row[], key: (r: Row) => number) {
  const seen = new Set<string>();
  let current = "";
  let expected = 0;
  let prev = Infinity;
  for (const r of rows) {
    if (r.group.id !== current) {
      expect(seen.has(r.group.id), `group ${r.group.id} appears twice`).toBe(false);
      seen.add(r.group.id);
      current = r.group.id;
      expected = 0;
      prev = Infinity;
    }
    expect(r.position).toBe(++expected);
    expect(key(r)).toBeLessThanOrEqual(prev);
    prev = key(r);
  }
  return seen;
}

function expectRanked(rows: Row[], key: (r: Row) => number) {
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
  for (let i = 1; i < rows.length; i++) expect(key(rows[i]!)).toBeLessThanOrEqual(key(rows[i - 1]!));
}

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/leagues/{leagueId}/standings", () => {
  it("answers the bare { rows, tiebreakRules, tables } by id, by slug and by slug in another case", async () => {
    const bodies = [];
    for (const key of ["lg_nfl", "nfl", "NFL", "Nfl"]) {
      const res = await api("GET", `/api/leagues/${key}/standings`);
      expect(res.status, key).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["rows", "tables", "tiebreakRules"]);
      expect(standingsResult.safeParse(res.body).success).toBe(true);
      bodies.push(res.body);
    }
    for (const b of bodies.slice(1)) expect(b).toEqual(bodies[0]);
  });

  it("football: one row per live team grouped by division; a table per conference, then the league", async () => {
    const { body } = await api("GET", "/api/leagues/nfl/standings");
    const rows = body.rows as Row[];
    const teams = await db().team.findMany({ where: { leagueId: "lg_nfl", archivedAt: null } });
    expect(rows.map((r) => r.team.id).sort()).toEqual(teams.map((t) => t.id).sort());
    expect(rows.map((r) => r.team.id)).not.toContain("tm_dvs");
    expect(rows.every((r) => r.group.scope === "division")).toBe(true);
    const groups = expectGrouped(rows, (r) => r.winPct);
    expect([...groups]).toEqual(["div_nfl_afc_east", "div_nfl_afc_west", "div_nfl_nfc_east", "div_nfl_nfc_west"]);
    for (const r of rows) expect(r.group.id).toBe(teams.find((t) => t.id === r.team.id)!.divisionId);
    // Games back within the division: the leader is 0.
    for (const r of rows.filter((x) => x.position === 1)) expect(r.gamesBack).toBe(0);
    expect(rows.every((r) => r.points === null)).toBe(true);

    const tables = body.tables as Table[];
    expect(tables.map((t) => [t.scope, t.id])).toEqual([
      ["conference", "conf_nfl_afc"],
      ["conference", "conf_nfl_nfc"],
      ["league", "lg_nfl"],
    ]);
    expect(tables[0]!.name).toBe("American Football Conference");
    expect(tables[2]!.name).toBe("National Football League");
    expect(tables[0]!.rows).toHaveLength(5);
    expect(tables[1]!.rows).toHaveLength(6);
    expect(tables[2]!.rows).toHaveLength(11);
    for (const t of tables) expectRanked(t.rows, (r) => r.winPct);
    expect(body.tiebreakRules).toEqual(["wins", "scoreDifferential", "scoreFor", "name"]);
  });

  it("football numbers match the games table: W/L/T, scores, win percentage, games back, streak", async () => {
    const { body } = await api("GET", "/api/leagues/lg_nfl/standings");
    const expected = await recordsFromGames("lg_nfl");
    const league = (body.tables as Table[]).find((t) => t.scope === "league")!;
    const leader = league.rows[0]!;
    for (const r of league.rows) {
      const e = expected.get(r.team.id) ?? { gp: 0, w: 0, l: 0, t: 0, otDefeats: 0, for: 0, against: 0, last: [] };
      expect(r, r.team.id).toMatchObject({
        gamesPlayed: e.gp,
        wins: e.w,
        losses: e.l + e.otDefeats, // football has no OT-loss column
        ties: e.t,
        overtimeLosses: 0,
        scoreFor: e.for,
        scoreAgainst: e.against,
        scoreDifferential: e.for - e.against,
      });
      expect(r.winPct).toBeCloseTo(e.gp ? (e.w + e.t / 2) / e.gp : 0, 3);
      expect(r.gamesBack).toBe((leader.wins - r.wins + (r.losses - leader.losses)) / 2);
    }
    // tm_hch: W 27-20, W 24-21, W 17-14, L 14-17 → 3-1, latest a loss.
    const hch = league.rows.find((r) => r.team.id === "tm_hch")!;
    expect(hch).toMatchObject({ wins: 3, losses: 1, scoreFor: 82, scoreAgainst: 72, streak: "L1", summary: "3-1" });
  });

  it("a row's summary agrees with the team detail's record", async () => {
    const { body } = await api("GET", "/api/leagues/nhl/standings");
    for (const id of ["tm_fpb", "tm_mhm"]) {
      const detail = await api("GET", `/api/teams/${id}`);
      expect(detail.status).toBe(200);
      const row = (body.rows as Row[]).find((r) => r.team.id === id)!;
      expect(row.summary).toBe(detail.body.team.teamRecord.summary);
      expect(row.overtimeLosses).toBe(detail.body.team.teamRecord.overtimeLosses);
    }
  });

  it("hockey: overtime defeats are overtime losses worth a point; ranked by points", async () => {
    const { body } = await api("GET", "/api/leagues/nhl/standings");
    const expected = await recordsFromGames("lg_nhl");
    const rows = body.rows as Row[];
    expect(rows).toHaveLength(8);
    expectGrouped(rows, (r) => r.points!);
    for (const r of rows) {
      const e = expected.get(r.team.id)!;
      expect(r, r.team.id).toMatchObject({
        wins: e.w,
        losses: e.l,
        overtimeLosses: e.otDefeats,
        ties: e.t,
        points: 2 * e.w + e.otDefeats + e.t,
        gamesBack: null,
      });
    }
    // fpb: W 3-2 OT, OTL 3-4, W 5-1, W 3-2 → 3-0-1, 7 points, W2.
    expect(rows.find((r) => r.team.id === "tm_fpb")).toMatchObject({ wins: 3, losses: 0, overtimeLosses: 1, points: 7, streak: "W2", summary: "3-0-1" });
    expect(rows.some((r) => r.overtimeLosses > 0)).toBe(true);
    expect((body.tables as Table[]).map((t) => t.scope)).toEqual(["conference", "conference", "league"]);
    for (const t of body.tables as Table[]) expectRanked(t.rows, (r) => r.points!);
    expect(body.tiebreakRules).toEqual(["pointsPct", "wins", "scoreDifferential", "scoreFor", "name"]);
  });

  it("basketball: grouped by conference, only the league table remains, games back per conference", async () => {
    const { body } = await api("GET", "/api/leagues/nba/standings");
    const rows = body.rows as Row[];
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.group.scope === "conference")).toBe(true);
    expect([...expectGrouped(rows, (r) => r.winPct)]).toEqual(["conf_nba_east", "conf_nba_west"]);
    const expected = await recordsFromGames("lg_nba");
    for (const r of rows) {
      const e = expected.get(r.team.id)!;
      expect(r).toMatchObject({ wins: e.w, losses: e.l + e.otDefeats, overtimeLosses: 0, points: null });
    }
    // East: ngn 2-0 (1.000) leads lsl 3-1 (.750), which is ((2-3) + (1-0)) / 2 = 0 back.
    const east = rows.filter((r) => r.group.id === "conf_nba_east");
    expect(east.map((r) => [r.team.id, r.wins, r.losses, r.gamesBack])).toEqual([
      ["tm_ngn", 2, 0, 0],
      ["tm_lsl", 3, 1, 0],
      ["tm_rvr", 1, 2, 1.5],
      ["tm_bhb", 0, 2, 2],
    ]);
    const tables = body.tables as Table[];
    expect(tables.map((t) => [t.scope, t.id])).toEqual([["league", "lg_nba"]]);
    expect(tables[0]!.rows).toHaveLength(8);
  });

  it('soccer: one league group, no tables, points 3/1/0 with draws; the team with sport "" is still scored', async () => {
    const { body } = await api("GET", "/api/leagues/PSL/standings");
    const rows = body.rows as Row[];
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.group.scope === "league" && r.group.id === "lg_psl" && r.group.name === "Premier Soccer League")).toBe(true);
    expect(body.tables).toEqual([]);
    expectRanked(rows, (r) => r.points!);
    const expected = await recordsFromGames("lg_psl");
    for (const r of rows) {
      const e = expected.get(r.team.id)!;
      expect(r).toMatchObject({ wins: e.w, ties: e.t, losses: e.l + e.otDefeats, points: 3 * e.w + e.t, gamesBack: null });
    }
    expect(rows.reduce((n, r) => n + r.ties, 0)).toBe(6); // three draws, two sides each
    expect(rows.find((r) => r.team.id === "tm_cwt")).toMatchObject({ wins: 0, losses: 2, points: 0, streak: "L2" });
    expect(body.tiebreakRules).toEqual(["scoreDifferential", "scoreFor", "wins", "name"]);
  });

  it("leagues that cannot be scored answer 200 with empty rows", async () => {
    // Sport "" (other) and an unknown sport: no rules, so no tiebreak rules either.
    for (const key of [extra.blank.id, extra.curling.slug.toUpperCase()]) {
      const res = await api("GET", `/api/leagues/${key}/standings`);
      expect(res.status, key).toBe(200);
      expect(res.body).toEqual({ rows: [], tiebreakRules: [], tables: [] });
    }
    // A scorable sport with nothing finished yet.
    const empty = await api("GET", `/api/leagues/${extra.empty.slug}/standings`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ rows: [], tiebreakRules: ["scoreDifferential", "scoreFor", "wins", "name"], tables: [] });
  });

  it("missing or archived leagues are 404 NOT_FOUND; ids are exact", async () => {
    for (const key of ["no-such-league", extra.archived.id, extra.archived.slug, "LG_NFL"]) {
      const res = await api("GET", `/api/leagues/${key}/standings`);
      expect(res.status, key).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: "NOT_FOUND", message: "League not found." } });
    }
  });

  it("a malformed leagueId is 400 VALIDATION_ERROR", async () => {
    for (const key of ["a%20b", "x".repeat(129), "a%5Cb"]) {
      const res = await api("GET", `/api/leagues/${key}/standings`);
      expect(res.status, key.slice(0, 10)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.[0]?.path).toBe("params.leagueId");
    }
  });

  it("is public: a token, even an invalid one, changes nothing", async () => {
    const anon = await api("GET", "/api/leagues/nba/standings");
    for (const headers of [invalid, newUser().auth]) {
      const res = await api("GET", "/api/leagues/nba/standings", { headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(anon.body);
    }
  });

  it("other methods are 405", async () => {
    const res = await api("DELETE", "/api/leagues/nfl/standings");
    expect(res.status).toBe(405);
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
  });
});
