import { describe, expect, it } from "vitest";
import { buildSportsCatalog, sportLabel } from "../../lib/core/leagues/service";
import {
  buildStandings,
  compareTotals,
  computeTotals,
  groupingLevel,
  sportRules,
  streakOf,
  type FinishedGame,
  type StandingsRow,
  type StandingsTeam,
  type TeamTotals,
} from "../../lib/core/leagues/standings";

// Hand-worked tables: every number below was worked out on paper from the listed games.

const team = (id: string, name: string, conference: [string, string] | null = null, division: [string, string] | null = null): StandingsTeam => ({
  id,
  slug: name.toLowerCase().replace(/\s+/g, "-"),
  name,
  shortName: null,
  abbreviation: id.toUpperCase(),
  logo: null,
  conference: conference ? { id: conference[0], name: conference[1] } : null,
  division: division ? { id: division[0], name: division[1] } : null,
});

let clock = Date.UTC(2026, 8, 1);
/** Games in the order given, one day apart. */
const games = (rows: [string, string, number, number, boolean?][]): FinishedGame[] =>
  rows.map(([home, away, hs, as, overtime = false], i) => ({
    id: `g${String(i + 1).padStart(3, "0")}`,
    homeTeamId: home,
    awayTeamId: away,
    homeScore: hs,
    awayScore: as,
    overtime,
    startsAt: new Date((clock += 86_400_000)),
  }));

const pick = (rows: StandingsRow[]) =>
  rows.map((r) => ({
    id: r.team.id,
    position: r.position,
    gp: r.gamesPlayed,
    w: r.wins,
    l: r.losses,
    t: r.ties,
    otl: r.overtimeLosses,
    pts: r.points,
    pct: r.winPct,
    gb: r.gamesBack,
    for: r.scoreFor,
    against: r.scoreAgainst,
    diff: r.scoreDifferential,
    streak: r.streak,
    summary: r.summary,
  }));

describe("sport rules", () => {
  it("knows soccer, hockey (and its aliases), basketball and football; nothing else can be scored", () => {
    expect(sportRules("soccer")).toMatchObject({ primary: "points", points: { win: 3, tie: 1, overtimeLoss: 0 }, overtimeLosses: false });
    expect(sportRules("hockey")).toMatchObject({ primary: "points", points: { win: 2, tie: 1, overtimeLoss: 1 }, overtimeLosses: true });
    expect(sportRules("ice-hockey")?.overtimeLosses).toBe(true);
    expect(sportRules("basketball")).toMatchObject({ primary: "winPct", points: null, overtimeLosses: false });
    expect(sportRules("football")).toMatchObject({ primary: "winPct", points: null, overtimeLosses: false });
    for (const s of ["other", "curling", "", "constructor", "__proto__"]) expect(sportRules(s)).toBeNull();
  });

  it("every tiebreak chain ends with the named last resort", () => {
    for (const s of ["soccer", "hockey", "basketball", "football"]) expect(sportRules(s)!.tiebreak.at(-1)).toBe("name");
    expect(sportRules("soccer")!.tiebreak).toEqual(["scoreDifferential", "scoreFor", "wins", "name"]);
    expect(sportRules("hockey")!.tiebreak).toEqual(["pointsPct", "wins", "scoreDifferential", "scoreFor", "name"]);
    expect(sportRules("basketball")!.tiebreak).toEqual(["wins", "scoreDifferential", "scoreFor", "name"]);
  });
});

describe("soccer: points 3/1/0 with draws", () => {
  const teams = [team("a", "Albion"), team("b", "Borough"), team("c", "City"), team("d", "Dynamo")];
  const g = games([
    ["a", "b", 2, 0],
    ["c", "d", 1, 1],
    ["a", "c", 1, 1],
    ["b", "d", 3, 1],
    ["d", "a", 0, 2],
    ["b", "c", 2, 2],
  ]);
  const s = buildStandings({ league: { id: "lg", name: "League", sport: "soccer" }, teams, games: g });

  it("ranks by points and computes every column", () => {
    expect(pick(s.rows)).toEqual([
      { id: "a", position: 1, gp: 3, w: 2, l: 0, t: 1, otl: 0, pts: 7, pct: 0.833, gb: null, for: 5, against: 1, diff: 4, streak: "W1", summary: "2-0-1" },
      { id: "b", position: 2, gp: 3, w: 1, l: 1, t: 1, otl: 0, pts: 4, pct: 0.5, gb: null, for: 5, against: 5, diff: 0, streak: "T1", summary: "1-1-1" },
      { id: "c", position: 3, gp: 3, w: 0, l: 0, t: 3, otl: 0, pts: 3, pct: 0.5, gb: null, for: 4, against: 4, diff: 0, streak: "T3", summary: "0-0-3" },
      { id: "d", position: 4, gp: 3, w: 0, l: 2, t: 1, otl: 0, pts: 1, pct: 0.167, gb: null, for: 2, against: 6, diff: -4, streak: "L2", summary: "0-2-1" },
    ]);
    expect(s.rows.map((r) => r.pointsPct)).toEqual([0.778, 0.444, 0.333, 0.111]);
  });

  it("a league without conferences groups rows by the league and has no other tables", () => {
    expect(s.rows.every((r) => r.group.scope === "league" && r.group.id === "lg" && r.group.name === "League")).toBe(true);
    expect(s.tables).toEqual([]);
    expect(s.tiebreakRules).toEqual(["scoreDifferential", "scoreFor", "wins", "name"]);
  });

  it("level on points: goal differential, then goals for, then wins, then name (not id)", () => {
    // e beats f 3-0, f beats g 1-0, g beats e 1-0: 3 points each; differential e +2, g 0, f -2.
    const cycle = buildStandings({
      league: { id: "lg", name: "L", sport: "soccer" },
      teams: [team("e", "E"), team("f", "F"), team("g", "G")],
      games: games([
        ["e", "f", 3, 0],
        ["f", "g", 1, 0],
        ["g", "e", 1, 0],
      ]),
    });
    expect(cycle.rows.map((r) => [r.team.id, r.points, r.scoreDifferential])).toEqual([
      ["e", 3, 2],
      ["g", 3, 0],
      ["f", 3, -2],
    ]);
    // h/i draw 2-2 and j/k draw 0-0: one point and differential 0 each; goals for splits the pairs, name the rest.
    // Ids run against names, so an id order would fail.
    const draws = buildStandings({
      league: { id: "lg", name: "L", sport: "soccer" },
      teams: [team("t1", "Zulu"), team("t2", "Alpha"), team("t3", "Yankee"), team("t4", "Bravo")],
      games: games([
        ["t3", "t4", 0, 0],
        ["t1", "t2", 2, 2],
      ]),
    });
    expect(draws.rows.map((r) => r.team.name)).toEqual(["Alpha", "Zulu", "Bravo", "Yankee"]);
  });
});

describe("hockey: 2 points a win, 1 an overtime loss", () => {
  const teams = [team("p", "Pumas"), team("q", "Quails"), team("r", "Ravens")];
  const g = games([
    ["p", "q", 3, 2, true], // q loses in overtime
    ["q", "r", 4, 1],
    ["r", "p", 2, 1, true], // p loses in overtime
    ["p", "r", 5, 0],
  ]);
  const s = buildStandings({ league: { id: "lg", name: "L", sport: "hockey" }, teams, games: g });

  it("keeps overtime losses apart and scores them", () => {
    expect(pick(s.rows)).toEqual([
      { id: "p", position: 1, gp: 3, w: 2, l: 0, t: 0, otl: 1, pts: 5, pct: 0.667, gb: null, for: 9, against: 4, diff: 5, streak: "W1", summary: "2-0-1" },
      { id: "q", position: 2, gp: 2, w: 1, l: 0, t: 0, otl: 1, pts: 3, pct: 0.5, gb: null, for: 6, against: 4, diff: 2, streak: "W1", summary: "1-0-1" },
      { id: "r", position: 3, gp: 3, w: 1, l: 2, t: 0, otl: 0, pts: 2, pct: 0.333, gb: null, for: 3, against: 10, diff: -7, streak: "L1", summary: "1-2" },
    ]);
    expect(s.rows.map((r) => r.pointsPct)).toEqual([0.833, 0.75, 0.333]);
  });

  it("an overtime loss as the latest result is an OT streak", () => {
    const t = computeTotals([team("p", "P"), team("q", "Q")], games([["p", "q", 3, 2, true]]), sportRules("hockey")!);
    expect(t.map((x) => x.streak)).toEqual(["W1", "OT1"]);
  });

  it("level on points, the better points percentage (fewer games) ranks first", () => {
    // s: one regulation win (2 points in 1 game); t: two overtime losses (2 points in 2 games).
    const standings = buildStandings({
      league: { id: "lg", name: "L", sport: "hockey" },
      teams: [team("s", "Zebras"), team("t", "Antelopes"), team("u", "Unicorns"), team("v", "Vipers")],
      games: games([
        ["s", "u", 1, 0],
        ["t", "u", 1, 2, true],
        ["t", "v", 0, 1, true],
      ]),
    });
    const byId = Object.fromEntries(standings.rows.map((r) => [r.team.id, r]));
    expect([byId.s!.points, byId.t!.points]).toEqual([2, 2]);
    expect(byId.s!.position).toBeLessThan(byId.t!.position);
  });
});

describe("basketball: win percentage and games back, conferences only", () => {
  const east: [string, string] = ["east", "Eastern Conference"];
  const west: [string, string] = ["west", "Western Conference"];
  const teams = [team("w1", "Wolves", west), team("e1", "Eagles", east), team("w2", "Lions", west), team("e2", "Bears", east)];
  const g = games([
    ["e1", "e2", 100, 90],
    ["w1", "w2", 80, 85],
    ["e1", "w1", 101, 99, true], // an overtime loss is a plain loss in basketball
    ["e2", "w2", 95, 90],
    ["w2", "e1", 88, 80],
    ["e1", "e2", 110, 100],
  ]);
  const s = buildStandings({ league: { id: "lg", name: "Hoops", sport: "basketball" }, teams, games: g });

  it("rows are grouped by conference, ranked by win percentage, games back within the group", () => {
    expect(pick(s.rows)).toEqual([
      { id: "e1", position: 1, gp: 4, w: 3, l: 1, t: 0, otl: 0, pts: null, pct: 0.75, gb: 0, for: 391, against: 377, diff: 14, streak: "W1", summary: "3-1" },
      {
        id: "e2",
        position: 2,
        gp: 3,
        w: 1,
        l: 2,
        t: 0,
        otl: 0,
        pts: null,
        pct: 0.333,
        gb: 1.5,
        for: 285,
        against: 300,
        diff: -15,
        streak: "L1",
        summary: "1-2",
      },
      { id: "w2", position: 1, gp: 3, w: 2, l: 1, t: 0, otl: 0, pts: null, pct: 0.667, gb: 0, for: 263, against: 255, diff: 8, streak: "W1", summary: "2-1" },
      { id: "w1", position: 2, gp: 2, w: 0, l: 2, t: 0, otl: 0, pts: null, pct: 0, gb: 1.5, for: 179, against: 186, diff: -7, streak: "L2", summary: "0-2" },
    ]);
    expect(s.rows.map((r) => r.group)).toEqual([
      { scope: "conference", ...{ id: "east", name: "Eastern Conference" } },
      { scope: "conference", id: "east", name: "Eastern Conference" },
      { scope: "conference", id: "west", name: "Western Conference" },
      { scope: "conference", id: "west", name: "Western Conference" },
    ]);
    expect(s.rows.every((r) => r.pointsPct === null)).toBe(true);
  });

  it("the remaining scope is the league table, with games back against the league leader", () => {
    expect(s.tables).toHaveLength(1);
    expect(s.tables[0]).toMatchObject({ scope: "league", id: "lg", name: "Hoops" });
    expect(s.tables[0]!.rows.map((r) => [r.team.id, r.position, r.gamesBack])).toEqual([
      ["e1", 1, 0],
      ["w2", 2, 0.5],
      ["e2", 3, 1.5],
      ["w1", 4, 2],
    ]);
    // Table rows still name the team's own group.
    expect(s.tables[0]!.rows[1]!.group.id).toBe("west");
  });
});

describe("football: a tie counts half a win; divisions, conferences and the league", () => {
  const afc: [string, string] = ["conf_a", "AFC"];
  const nfc: [string, string] = ["conf_n", "NFC"];
  const teams = [
    team("n2", "Lions", nfc, ["div_nn", "NFC North"]),
    team("a3", "Raiders", afc, ["div_aw", "AFC West"]),
    team("a1", "Hawks", afc, ["div_ae", "AFC East"]),
    team("n1", "Bears", nfc, ["div_nn", "NFC North"]),
    team("a2", "Jets", afc, ["div_ae", "AFC East"]),
  ];
  const g = games([
    ["a1", "a2", 20, 20],
    ["a3", "n1", 24, 17],
    ["n2", "a1", 10, 13, true],
    ["a2", "a3", 30, 27],
    ["n1", "n2", 21, 14],
  ]);
  const s = buildStandings({ league: { id: "lg", name: "Gridiron", sport: "football" }, teams, games: g });

  it("rows are grouped by division (conference name, then division name) and ranked within each", () => {
    expect(pick(s.rows)).toEqual([
      // a1 and a2: both .750, one win, +3; a2 scored more.
      { id: "a2", position: 1, gp: 2, w: 1, l: 0, t: 1, otl: 0, pts: null, pct: 0.75, gb: 0, for: 50, against: 47, diff: 3, streak: "W1", summary: "1-0-1" },
      { id: "a1", position: 2, gp: 2, w: 1, l: 0, t: 1, otl: 0, pts: null, pct: 0.75, gb: 0, for: 33, against: 30, diff: 3, streak: "W1", summary: "1-0-1" },
      { id: "a3", position: 1, gp: 2, w: 1, l: 1, t: 0, otl: 0, pts: null, pct: 0.5, gb: 0, for: 51, against: 47, diff: 4, streak: "L1", summary: "1-1" },
      { id: "n1", position: 1, gp: 2, w: 1, l: 1, t: 0, otl: 0, pts: null, pct: 0.5, gb: 0, for: 38, against: 38, diff: 0, streak: "W1", summary: "1-1" },
      { id: "n2", position: 2, gp: 2, w: 0, l: 2, t: 0, otl: 0, pts: null, pct: 0, gb: 1, for: 24, against: 34, diff: -10, streak: "L2", summary: "0-2" },
    ]);
    expect(s.rows.map((r) => r.group.id)).toEqual(["div_ae", "div_ae", "div_aw", "div_nn", "div_nn"]);
    expect(s.rows.every((r) => r.group.scope === "division")).toBe(true);
    expect(s.tiebreakRules).toEqual(["wins", "scoreDifferential", "scoreFor", "name"]);
  });

  it("tables: one per conference, then the league", () => {
    expect(s.tables.map((t) => [t.scope, t.id, t.name])).toEqual([
      ["conference", "conf_a", "AFC"],
      ["conference", "conf_n", "NFC"],
      ["league", "lg", "Gridiron"],
    ]);
    expect(s.tables[0]!.rows.map((r) => [r.team.id, r.position, r.gamesBack])).toEqual([
      ["a2", 1, 0],
      ["a1", 2, 0],
      ["a3", 3, 0.5],
    ]);
    // a3 and n1 are both .500 with one win: a3's +4 beats n1's 0.
    expect(s.tables[2]!.rows.map((r) => [r.team.id, r.position, r.gamesBack])).toEqual([
      ["a2", 1, 0],
      ["a1", 2, 0],
      ["a3", 3, 0.5],
      ["n1", 4, 0.5],
      ["n2", 5, 1.5],
    ]);
  });

  it("a team without a division falls back to its conference group, after that conference's divisions", () => {
    const withLoose = buildStandings({
      league: { id: "lg", name: "Gridiron", sport: "football" },
      teams: [...teams, team("a4", "Admirals", afc)],
      games: g,
    });
    expect(withLoose.rows.map((r) => r.group.id)).toEqual(["div_ae", "div_ae", "div_aw", "conf_a", "div_nn", "div_nn"]);
    const loose = withLoose.rows[3]!;
    expect(loose).toMatchObject({ position: 1, gamesPlayed: 0, winPct: 0, streak: null, summary: "0-0", group: { scope: "conference", id: "conf_a" } });
    expect(withLoose.tables[0]!.rows.map((r) => r.team.id)).toContain("a4");
  });
});

describe("what cannot be scored", () => {
  const teams = [team("a", "A"), team("b", "B")];
  const g = games([["a", "b", 1, 0]]);

  it("a sport without rules: empty rows, tables and tiebreak rules", () => {
    expect(buildStandings({ league: { id: "lg", name: "L", sport: "other" }, teams, games: g })).toEqual({ rows: [], tiebreakRules: [], tables: [] });
    expect(buildStandings({ league: { id: "lg", name: "L", sport: "curling" }, teams, games: g })).toEqual({ rows: [], tiebreakRules: [], tables: [] });
  });

  it("no finished game yet: empty rows and tables, the sport's tiebreak rules", () => {
    expect(buildStandings({ league: { id: "lg", name: "L", sport: "soccer" }, teams, games: [] })).toEqual({
      rows: [],
      tiebreakRules: ["scoreDifferential", "scoreFor", "wins", "name"],
      tables: [],
    });
  });
});

describe("records", () => {
  it("games against teams that are not listed (archived, other leagues) count for the listed side only", () => {
    const t = computeTotals(
      [team("a", "A")],
      games([
        ["a", "gone", 2, 1],
        ["gone", "a", 3, 0],
      ]),
      sportRules("soccer")!,
    );
    expect(t[0]).toMatchObject({ gamesPlayed: 2, wins: 1, losses: 1, points: 3, scoreFor: 2, scoreAgainst: 4 });
  });

  it("the streak follows kickoff time, not the order the games arrive in", () => {
    const g = games([
      ["a", "b", 1, 0],
      ["a", "b", 0, 1],
      ["a", "b", 0, 2],
    ]);
    const t = computeTotals([team("a", "A"), team("b", "B")], [g[2]!, g[0]!, g[1]!], sportRules("basketball")!);
    expect(t.map((x) => x.streak)).toEqual(["L2", "W2"]);
  });

  it("streakOf counts the run that ends with the latest result", () => {
    expect(streakOf([])).toBeNull();
    expect(streakOf(["W", "W", "L", "L", "L"])).toBe("L3");
    expect(streakOf(["L", "W", "W", "W"])).toBe("W3");
    expect(streakOf(["W", "T"])).toBe("T1");
    expect(streakOf(["W", "OT", "OT"])).toBe("OT2");
  });

  it("compareTotals applies the chain in order", () => {
    const rules = sportRules("basketball")!;
    const base = (id: string, name: string, o: Partial<TeamTotals>): TeamTotals => ({
      team: team(id, name),
      gamesPlayed: 4,
      wins: 2,
      losses: 2,
      ties: 0,
      overtimeLosses: 0,
      points: null,
      pointsPct: null,
      winPct: 0.5,
      scoreFor: 100,
      scoreAgainst: 100,
      streak: null,
      ...o,
    });
    // Same .500: more wins first.
    expect(compareTotals(base("x", "X", { wins: 3, losses: 3, gamesPlayed: 6 }), base("y", "Y", {}), rules)).toBeLessThan(0);
    // Same wins: differential.
    expect(compareTotals(base("x", "X", { scoreAgainst: 90 }), base("y", "Y", {}), rules)).toBeLessThan(0);
    // Same differential: points scored.
    expect(compareTotals(base("x", "X", { scoreFor: 120, scoreAgainst: 120 }), base("y", "Y", {}), rules)).toBeLessThan(0);
    // All equal: name, then id.
    expect(compareTotals(base("x", "Beta", {}), base("y", "Alpha", {}), rules)).toBeGreaterThan(0);
    expect(compareTotals(base("x", "Same", {}), base("y", "Same", {}), rules)).toBeLessThan(0);
    // The primary key beats every tiebreak.
    expect(compareTotals(base("x", "A", { winPct: 0.6, wins: 0, scoreFor: 0 }), base("y", "B", {}), rules)).toBeLessThan(0);
  });

  it("groupingLevel is the most specific level any team has", () => {
    expect(groupingLevel([team("a", "A")])).toBe("league");
    expect(groupingLevel([team("a", "A", ["c", "C"]), team("b", "B")])).toBe("conference");
    expect(groupingLevel([team("a", "A", ["c", "C"], ["d", "D"]), team("b", "B", ["c", "C"])])).toBe("division");
  });
});

describe("sports catalog (pure)", () => {
  it("derives sports from league values, orders by the smallest displayOrder then id, capitalises labels", () => {
    const catalog = buildSportsCatalog([
      { id: "l1", name: "Hockey One", shortName: "H1", sport: " Hockey", displayOrder: 5 },
      { id: "l2", name: "Soccer B", shortName: null, sport: "soccer", displayOrder: 2 },
      { id: "l3", name: "Hockey Zero", shortName: " ", sport: "hockey", displayOrder: 1 },
      { id: "l4", name: "Mystery", shortName: "MY", sport: "", displayOrder: 2 },
      { id: "l5", name: "Soccer A", shortName: null, sport: "SOCCER", displayOrder: 2 },
      { id: "l6", name: "Ice", shortName: null, sport: "ice-hockey", displayOrder: 9 },
    ]);
    expect(catalog.sports).toEqual([
      {
        id: "hockey",
        label: "Hockey",
        order: 1,
        leagues: [
          { id: "l3", label: "Hockey Zero", order: 1 },
          { id: "l1", label: "H1", order: 2 },
        ],
      },
      { id: "other", label: "Other", order: 2, leagues: [{ id: "l4", label: "MY", order: 1 }] },
      {
        id: "soccer",
        label: "Soccer",
        order: 3,
        leagues: [
          { id: "l5", label: "Soccer A", order: 1 },
          { id: "l2", label: "Soccer B", order: 2 },
        ],
      },
      { id: "ice-hockey", label: "Ice Hockey", order: 4, leagues: [{ id: "l6", label: "Ice", order: 1 }] },
    ]);
    expect(buildSportsCatalog([])).toEqual({ sports: [] });
    expect(sportLabel("ice_hockey")).toBe("Ice Hockey");
  });
});
