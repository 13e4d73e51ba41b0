import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { leaguesResult, sportsCatalog, standingsResult } from "../../lib/core/leagues/schemas";
import { accessibilityMatrix } from "../../lib/operations/platform/schemas";
import { normalizeSport } from "../../lib/core/teams/sport";
import { api, db, errorOf, newUser, token } from "../helpers";

// Seeded facts (dev/seed/data.ts): lg_nfl football (2 conferences × 2 divisions, tm_dvs archived), lg_nba
// basketball (2 conferences), lg_nhl hockey (2 conferences × 2 divisions), lg_psl soccer (no structure; tm_cwt has
// sport ""). All games are season "2026".
//
// These tests add leagues only (no teams, no games, season "2026" or none): other files count teams, records and the
// current season, and run at the same time.

const run = randomBytes(3).toString("hex");
const extra = {
  archived: { id: `lg_t_arch_${run}`, slug: `arch-${run}`, name: `Archived ${run}` },
  blank: { id: `lg_t_blank_${run}`, slug: `blank-${run}`, name: `Blank ${run}` },
  curling: { id: `lg_t_curl_${run}`, slug: `curl-${run}`, name: `Curling ${run}` },
  empty: { id: `lg_t_empty_${run}`, slug: `empty-${run}`, name: `Empty ${run}` },
  messy: { id: `lg_t_messy_${run}`, slug: `messy-${run}`, name: `Messy ${run}` },
};

beforeAll(async () => {
  await db().league.createMany({
    data: [
      { ...extra.archived, sport: "soccer", season: "2026", displayOrder: 0, archivedAt: new Date() },
      { ...extra.blank, sport: "", season: null, displayOrder: 101 },
      { ...extra.curling, sport: "Curling", season: "2026", displayOrder: 102, shortName: "CUR" },
      { ...extra.empty, sport: "soccer", season: "2026", displayOrder: 103 },
      { ...extra.messy, sport: "  HOCKEY ", season: "2026", displayOrder: 104 },
    ],
  });
});

const SEEDED = ["lg_nfl", "lg_nba", "lg_nhl", "lg_psl"];
const invalid = { authorization: "Bearer not-a-valid-token" };

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

describe("GET /api/leagues", () => {
  it("lists non-archived leagues by displayOrder then name, enveloped, with branding and structure", async () => {
    const res = await api("GET", "/api/leagues");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(leaguesResult.safeParse(res.body.data).success).toBe(true);
    const leagues = res.body.data.leagues as { id: string; displayOrder: number; name: string; [k: string]: unknown }[];
    const ids = leagues.map((l) => l.id);
    expect(ids.slice(0, 4)).toEqual(SEEDED);
    expect(ids).not.toContain(extra.archived.id);
    expect(ids).toEqual(expect.arrayContaining([extra.blank.id, extra.curling.id, extra.empty.id, extra.messy.id]));
    for (let i = 1; i < leagues.length; i++) {
      const [a, b] = [leagues[i - 1]!, leagues[i]!];
      expect(a.displayOrder < b.displayOrder || (a.displayOrder === b.displayOrder && a.name <= b.name)).toBe(true);
    }
    const live = await db().league.count({ where: { archivedAt: null } });
    expect(leagues).toHaveLength(live);

    expect(leagues[0]).toEqual({
      id: "lg_nfl",
      slug: "nfl",
      name: "National Football League",
      shortName: "NFL",
      sport: "football",
      season: "2026",
      logo: "https://cdn.example.com/leagues/nfl.png",
      colors: { primary: "#013369", secondary: "#D50A0A" },
      displayOrder: 1,
      teamCount: 11,
      conferences: [
        {
          id: "conf_nfl_afc",
          name: "American Football Conference",
          divisions: [
            { id: "div_nfl_afc_east", name: "AFC East" },
            { id: "div_nfl_afc_west", name: "AFC West" },
          ],
        },
        {
          id: "conf_nfl_nfc",
          name: "National Football Conference",
          divisions: [
            { id: "div_nfl_nfc_east", name: "NFC East" },
            { id: "div_nfl_nfc_west", name: "NFC West" },
          ],
        },
      ],
      divisions: [],
      href: "/api/leagues/nfl/standings",
    });
  });

  it("team counts leave archived teams out; structure follows each league", async () => {
    const res = await api("GET", "/api/leagues");
    const byId = Object.fromEntries((res.body.data.leagues as { id: string }[]).map((l) => [l.id, l as Record<string, any>]));
    for (const id of SEEDED) {
      expect(byId[id]!.teamCount).toBe(await db().team.count({ where: { leagueId: id, archivedAt: null } }));
    }
    expect(byId.lg_nba!.conferences.map((c: { name: string; divisions: unknown[] }) => [c.name, c.divisions.length])).toEqual([
      ["Eastern Conference", 0],
      ["Western Conference", 0],
    ]);
    expect(byId.lg_nhl!.conferences.flatMap((c: { divisions: { id: string }[] }) => c.divisions.map((d) => d.id))).toHaveLength(4);
    expect(byId.lg_psl).toMatchObject({ sport: "soccer", teamCount: 8, conferences: [], divisions: [] });
  });

  it('sport is normalised and never null: "" is other, "  HOCKEY " is hockey, "Curling" is curling', async () => {
    const res = await api("GET", "/api/leagues");
    const byId = Object.fromEntries((res.body.data.leagues as { id: string; sport: string }[]).map((l) => [l.id, l]));
    expect(byId[extra.blank.id]).toMatchObject({ sport: "other", season: null, teamCount: 0, shortName: null });
    expect(byId[extra.messy.id]!.sport).toBe("hockey");
    expect(byId[extra.curling.id]!.sport).toBe("curling");
    for (const l of Object.values(byId)) expect(l.sport).toMatch(/^[a-z][a-z0-9_-]*$/);
  });

  it("?sport= filters by the normalised value", async () => {
    const hockey = await api("GET", "/api/leagues?sport=Hockey");
    expect(hockey.status).toBe(200);
    expect(hockey.body.data.leagues.map((l: { id: string }) => l.id)).toEqual(["lg_nhl", extra.messy.id]);
    const other = await api("GET", "/api/leagues?sport=other");
    expect(other.body.data.leagues.map((l: { id: string }) => l.id)).toEqual([extra.blank.id]);
    const none = await api("GET", "/api/leagues?sport=lacrosse");
    expect(none.status).toBe(200);
    expect(none.body.data.leagues).toEqual([]);
  });

  it("invalid query: empty or repeated sport, unknown keys → 400 VALIDATION_ERROR", async () => {
    for (const [q, path] of [
      ["sport=", "query.sport"],
      ["sport=a&sport=b", "query.sport"],
      ["colour=red", "query.colour"],
      [`sport=${"x".repeat(41)}`, "query.sport"],
    ] as const) {
      const res = await api("GET", `/api/leagues?${q}`);
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
  });

  it("optional auth: a valid token answers the same list; an invalid or malformed one is 401", async () => {
    const anon = await api("GET", "/api/leagues");
    const signed = await api("GET", "/api/leagues", { headers: newUser().auth });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(anon.body);
    for (const authorization of ["Bearer not-a-valid-token", "Basic abc", `Bearer ${token("user_expired_lg", { ttlSeconds: -60 })}`]) {
      const res = await api("GET", "/api/leagues", { headers: { authorization } });
      expect(res.status, authorization.slice(0, 12)).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
    }
  });

  it("other methods are 405 with Allow", async () => {
    const res = await api("POST", "/api/leagues", { json: {} });
    expect(res.status).toBe(405);
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("GET");
  });
});

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

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/config/sports", () => {
  it("answers the bare { sports } derived from non-archived leagues, cacheable by clients", async () => {
    const res = await api("GET", "/api/config/sports");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["sports"]);
    expect(sportsCatalog.safeParse(res.body).success).toBe(true);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const sports = res.body.sports as { id: string; label: string; order: number; leagues: { id: string; label: string; order: number }[] }[];
    const live = await db().league.findMany({ where: { archivedAt: null } });
    // Exactly the normalised sport values of live leagues, each league once under its own sport.
    expect(sports.map((s) => s.id).sort()).toEqual([...new Set(live.map((l) => normalizeSport(l.sport)))].sort());
    const listed = sports.flatMap((s) => s.leagues.map((l) => [l.id, s.id]));
    expect(listed.map(([id]) => id).sort()).toEqual(live.map((l) => l.id).sort());
    for (const [id, sport] of listed) expect(sport).toBe(normalizeSport(live.find((l) => l.id === id)!.sport));
    expect(listed.map(([id]) => id)).not.toContain(extra.archived.id);

    // Order: the smallest displayOrder of the sport's leagues, then id; order is 1-based.
    expect(sports.map((s) => s.order)).toEqual(sports.map((_, i) => i + 1));
    const first = (s: { leagues: { id: string }[] }) => Math.min(...s.leagues.map((l) => live.find((x) => x.id === l.id)!.displayOrder));
    for (let i = 1; i < sports.length; i++) {
      const [a, b] = [sports[i - 1]!, sports[i]!];
      expect(first(a) < first(b) || (first(a) === first(b) && a.id < b.id)).toBe(true);
    }
    expect(sports.slice(0, 4).map((s) => [s.id, s.label])).toEqual([
      ["football", "Football"],
      ["basketball", "Basketball"],
      ["hockey", "Hockey"],
      ["soccer", "Soccer"],
    ]);
    const hockey = sports.find((s) => s.id === "hockey")!;
    expect(hockey.leagues).toEqual([
      { id: "lg_nhl", label: "NHL", order: 1 },
      { id: extra.messy.id, label: extra.messy.name, order: 2 },
    ]);
    expect(sports.find((s) => s.id === "other")!.leagues.map((l) => l.id)).toEqual([extra.blank.id]);
    expect(sports.find((s) => s.id === "curling")).toMatchObject({ label: "Curling", leagues: [{ id: extra.curling.id, label: "CUR", order: 1 }] });
  });

  it("optional auth: a valid token gets the same catalog; an invalid one is 401", async () => {
    const anon = await api("GET", "/api/config/sports");
    const signed = await api("GET", "/api/config/sports", { headers: newUser().auth });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(anon.body);
    const bad = await api("GET", "/api/config/sports", { headers: invalid });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
    expect(bad.headers.get("cache-control")).toBe("no-store");
  });

  it("client input cannot make it fail: query strings are ignored", async () => {
    const anon = await api("GET", "/api/config/sports");
    for (const q of ["?sport=", "?x=1&x=2", "?%ZZ", `?${"a".repeat(2000)}=1`]) {
      const res = await api("GET", `/api/config/sports${q}`);
      expect(res.status, q.slice(0, 10)).toBe(200);
      expect(res.body).toEqual(anon.body);
    }
  });

  it("other methods are 405", async () => {
    expect((await api("POST", "/api/config/sports", { json: {} })).status).toBe(405);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("GET /api/accessibility", () => {
  it("answers the enveloped matrix: standards, every feature on web, iOS and Android, a contact", async () => {
    const res = await api("GET", "/api/accessibility");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(accessibilityMatrix.safeParse(res.body.data).success).toBe(true);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const m = res.body.data;
    expect(m.standards).toContain("WCAG 2.2 AA");
    expect(m.platforms).toEqual(["web", "ios", "android"]);
    expect(m.version).toMatch(/\S/);
    expect(m.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(m.contact.email).toContain("@");
    const ids = m.features.map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["screen-reader", "text-scaling", "reduced-motion", "captions"]));
    for (const f of m.features) {
      expect(Object.keys(f.platforms).sort()).toEqual(["android", "ios", "web"]);
      for (const p of Object.values(f.platforms) as { support: string }[]) expect(["full", "partial", "none"]).toContain(p.support);
    }
  });

  it("is public: an invalid token changes nothing", async () => {
    const anon = await api("GET", "/api/accessibility");
    const res = await api("GET", "/api/accessibility", { headers: invalid });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(anon.body);
  });

  it("other methods are 405", async () => {
    expect((await api("PUT", "/api/accessibility", { json: {} })).status).toBe(405);
  });
});
