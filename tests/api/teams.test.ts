import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, token, userIdOf } from "../helpers";

// Seeded facts (dev/seed/data.ts): 36 teams, one archived (tm_dvs), so 35 listed.
const LISTED = 35;
const SEASON = "2026";

type Team = {
  id: string;
  slug: string;
  name: string;
  sport: string;
  leagueInfo: { id: string; slug: string; sport: string; season: string | null; href: string };
  conference: { id: string; name: string } | null;
  division: { id: string; name: string } | null;
  [k: string]: unknown;
};

const teamsOf = (body: { teams: Team[] }) => body.teams;
const idsOf = (teams: Team[]) => teams.map((t) => t.id);
const namesOf = (teams: Team[]) => teams.map((t) => t.name);

/** Expected record of a team computed independently from the games table. */
async function recordFromGames(teamId: string) {
  const games = await db().game.findMany({
    where: { OR: [{ homeTeamId: teamId }, { awayTeamId: teamId }], status: "final", season: SEASON },
  });
  let wins = 0;
  let losses = 0;
  let ties = 0;
  for (const g of games) {
    const mine = g.homeTeamId === teamId ? g.homeScore! : g.awayScore!;
    const theirs = g.homeTeamId === teamId ? g.awayScore! : g.homeScore!;
    if (mine > theirs) wins++;
    else if (mine < theirs) losses++;
    else ties++;
  }
  return { played: games.length, wins, losses, ties };
}

describe("GET /api/teams (full list)", () => {
  it("answers the bare { teams, season } without total, archived excluded, ordered by name", async () => {
    const res = await api("GET", "/api/teams");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["season", "teams"]);
    expect(res.body.season).toBe(SEASON);
    const teams = teamsOf(res.body);
    expect(teams).toHaveLength(LISTED);
    expect(idsOf(teams)).not.toContain("tm_dvs");
    expect(new Set(idsOf(teams)).size).toBe(LISTED);
    const names = namesOf(teams);
    expect(names).toEqual([...names].sort());
    // Every live seeded team is there.
    const live = await db().team.findMany({ where: { archivedAt: null }, select: { id: true } });
    expect(idsOf(teams).sort()).toEqual(live.map((t) => t.id).sort());
  });

  it("every team has non-null string sport and leagueInfo.sport, and list items carry no detail fields", async () => {
    const res = await api("GET", "/api/teams");
    expect(res.status).toBe(200);
    for (const t of teamsOf(res.body)) {
      expect(typeof t.sport).toBe("string");
      expect(t.sport.length).toBeGreaterThan(0);
      expect(typeof t.leagueInfo.sport).toBe("string");
      expect(t.leagueInfo.sport.length).toBeGreaterThan(0);
      expect(t).not.toHaveProperty("teamRecord");
      expect(t).not.toHaveProperty("viewerCanPostAsTeam");
    }
  });

  it('a team stored with sport "" answers sport "other" while its league stays soccer', async () => {
    const res = await api("GET", "/api/teams");
    const cwt = teamsOf(res.body).find((t) => t.id === "tm_cwt")!;
    expect(cwt).toBeDefined();
    expect(cwt.sport).toBe("other");
    expect(cwt.leagueInfo).toMatchObject({ id: "lg_psl", slug: "psl", sport: "soccer", href: "/api/leagues/psl/standings" });
    const row = await db().team.findUniqueOrThrow({ where: { id: "tm_cwt" } });
    expect(row.sport).toBe("");
  });

  it("carries league, conference and division context", async () => {
    const res = await api("GET", "/api/teams");
    const byId = new Map(teamsOf(res.body).map((t) => [t.id, t]));
    const hch = byId.get("tm_hch")!;
    expect(hch).toMatchObject({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      sport: "football",
      providerId: "prov_101",
      source: "provider",
      isOfficial: true,
      colors: { primary: "#0B2265", secondary: "#A5ACAF" },
      leagueInfo: { id: "lg_nfl", slug: "nfl", sport: "football", season: SEASON },
      conference: { id: "conf_nfl_afc", name: "American Football Conference" },
      division: { id: "div_nfl_afc_east", name: "AFC East" },
    });
    expect(byId.get("tm_lsl")).toMatchObject({ conference: { id: "conf_nba_east" }, division: null });
    expect(byId.get("tm_whu")).toMatchObject({ conference: null, division: null, sport: "soccer" });
    expect(byId.get("tm_pap")).toMatchObject({ source: "manual", providerId: null });
  });
});

describe("GET /api/teams?slug=", () => {
  it("answers the bare { team }, case-insensitively", async () => {
    for (const slug of ["harbor-city-hawks", "HARBOR-city-hawks", "Harbor-City-Hawks"]) {
      const res = await api("GET", `/api/teams?slug=${slug}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["team"]);
      expect(res.body.team).toMatchObject({ id: "tm_hch", slug: "harbor-city-hawks", name: "Harbor City Hawks", providerId: "prov_101" });
      expect(res.body.team).not.toHaveProperty("teamRecord");
    }
  });

  it("normalises sport on the slug form too", async () => {
    const res = await api("GET", "/api/teams?slug=clearwater-town");
    expect(res.status).toBe(200);
    expect(res.body.team.sport).toBe("other");
    expect(res.body.team.leagueInfo.sport).toBe("soccer");
  });

  it.each(["dune-valley-scorpions", "DUNE-VALLEY-SCORPIONS", "Dune-Valley-Scorpions"])("archived slug %s is 404 NOT_FOUND", async (slug) => {
    const res = await api("GET", `/api/teams?slug=${slug}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("unknown slug is 404 NOT_FOUND; an id is not a slug", async () => {
    const res = await api("GET", "/api/teams?slug=no-such-team");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    const byId = await api("GET", "/api/teams?slug=tm_hch");
    expect(byId.status).toBe(404);
    expect(errorOf(byId).code).toBe("NOT_FOUND");
  });

  it("an empty slug is 400 VALIDATION_ERROR", async () => {
    const res = await api("GET", "/api/teams?slug=");
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.[0]?.path).toBe("query.slug");
  });
});

describe("GET /api/teams filters and pagination", () => {
  it("?sport=hockey answers { teams, season, total: 8 } of hockey teams", async () => {
    const res = await api("GET", "/api/teams?sport=hockey");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["season", "teams", "total"]);
    expect(res.body.total).toBe(8);
    expect(res.body.season).toBe(SEASON);
    expect(teamsOf(res.body)).toHaveLength(8);
    expect(teamsOf(res.body).every((t) => t.sport === "hockey" && t.leagueInfo.id === "lg_nhl")).toBe(true);
    const names = namesOf(teamsOf(res.body));
    expect(names).toEqual([...names].sort());
  });

  it('?sport= matches the normalised value: soccer excludes the "" team, other finds it, Hockey is case-insensitive', async () => {
    const soccer = await api("GET", "/api/teams?sport=soccer");
    expect(soccer.status).toBe(200);
    expect(soccer.body.total).toBe(7);
    expect(idsOf(teamsOf(soccer.body))).not.toContain("tm_cwt");
    const other = await api("GET", "/api/teams?sport=other");
    expect(other.status).toBe(200);
    expect(other.body.total).toBe(1);
    expect(idsOf(teamsOf(other.body))).toEqual(["tm_cwt"]);
    const upper = await api("GET", "/api/teams?sport=Hockey");
    expect(upper.status).toBe(200);
    expect(upper.body.total).toBe(8);
  });

  it.each(["nba", "lg_nba", "NBA"])("?league=%s (slug or id) answers total 8 basketball teams", async (league) => {
    const res = await api("GET", `/api/teams?league=${league}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(8);
    expect(teamsOf(res.body)).toHaveLength(8);
    expect(teamsOf(res.body).every((t) => t.leagueInfo.id === "lg_nba" && t.sport === "basketball")).toBe(true);
    expect(res.body).not.toHaveProperty("nextCursor");
  });

  it("a league filter excludes the archived team from teams and total", async () => {
    const res = await api("GET", "/api/teams?league=nfl");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(11);
    expect(teamsOf(res.body)).toHaveLength(11);
    expect(idsOf(teamsOf(res.body))).not.toContain("tm_dvs");
  });

  it("filters combine, and an unmatched filter is an empty page with total 0", async () => {
    const both = await api("GET", "/api/teams?sport=hockey&league=nba");
    expect(both.status).toBe(200);
    expect(both.body).toEqual({ teams: [], season: SEASON, total: 0 });
    const unknown = await api("GET", "/api/teams?league=no-such-league");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ teams: [], season: SEASON, total: 0 });
    const soccerPsl = await api("GET", "/api/teams?sport=soccer&league=psl");
    expect(soccerPsl.body.total).toBe(7);
  });

  it("?limit=10 answers 10 teams, total 35 and a nextCursor", async () => {
    const res = await api("GET", "/api/teams?limit=10");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(LISTED);
    expect(teamsOf(res.body)).toHaveLength(10);
    expect(typeof res.body.nextCursor).toBe("string");
    const full = await api("GET", "/api/teams");
    expect(idsOf(teamsOf(res.body))).toEqual(idsOf(teamsOf(full.body)).slice(0, 10));
  });

  it("walking every page with the cursor returns all 35 teams once each, in name order", async () => {
    const full = await api("GET", "/api/teams");
    const seen: Team[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await api("GET", `/api/teams?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(LISTED);
      sizes.push(teamsOf(res.body).length);
      seen.push(...teamsOf(res.body));
      cursor = res.body.nextCursor;
      if (!cursor) break;
    }
    expect(sizes).toEqual([10, 10, 10, 5]);
    expect(cursor).toBeUndefined();
    expect(namesOf(seen)).toEqual(namesOf(teamsOf(full.body)));
    expect(new Set(idsOf(seen)).size).toBe(LISTED);
  });

  it("a page that ends exactly at the last team has no nextCursor", async () => {
    const res = await api("GET", `/api/teams?limit=${LISTED}`);
    expect(res.status).toBe(200);
    expect(teamsOf(res.body)).toHaveLength(LISTED);
    expect(res.body).not.toHaveProperty("nextCursor");
    const max = await api("GET", "/api/teams?limit=100");
    expect(max.status).toBe(200);
    expect(teamsOf(max.body)).toHaveLength(LISTED);
  });

  it("a cursor without limit pages with the default size (50) and answers total", async () => {
    const first = await api("GET", "/api/teams?limit=20");
    const rest = await api("GET", `/api/teams?cursor=${first.body.nextCursor}`);
    expect(rest.status).toBe(200);
    expect(rest.body.total).toBe(LISTED);
    expect(teamsOf(rest.body)).toHaveLength(LISTED - 20);
    expect(rest.body).not.toHaveProperty("nextCursor");
    const full = await api("GET", "/api/teams");
    expect(idsOf(teamsOf(rest.body))).toEqual(idsOf(teamsOf(full.body)).slice(20));
  });

  it("the cursor paginates within a filter", async () => {
    const first = await api("GET", "/api/teams?league=nba&limit=5");
    expect(first.status).toBe(200);
    expect(teamsOf(first.body)).toHaveLength(5);
    expect(first.body.total).toBe(8);
    const second = await api("GET", `/api/teams?league=nba&limit=5&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(teamsOf(second.body)).toHaveLength(3);
    expect(second.body).not.toHaveProperty("nextCursor");
    const all = [...teamsOf(first.body), ...teamsOf(second.body)];
    expect(all.every((t) => t.leagueInfo.id === "lg_nba")).toBe(true);
    expect(new Set(idsOf(all)).size).toBe(8);
    expect(namesOf(all)).toEqual([...namesOf(all)].sort());
  });

  it.each(["0", "101", "abc", "1.5", "-1", ""])("limit=%j is 400 VALIDATION_ERROR at query.limit", async (limit) => {
    const res = await api("GET", `/api/teams?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", message: expect.any(String) } });
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["query.limit"]);
  });

  it.each([
    "garbage!",
    "abc",
    Buffer.from(JSON.stringify(["v2", "x", "y"])).toString("base64url"),
    Buffer.from(JSON.stringify(["v1", "", "tm_hch"])).toString("base64url"),
  ])("garbage cursor %j is 400 VALIDATION_ERROR at query.cursor", async (cursor) => {
    const res = await api("GET", `/api/teams?cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.[0]?.path).toBe("query.cursor");
  });

  it("an unknown query key is 400 VALIDATION_ERROR", async () => {
    const res = await api("GET", "/api/teams?colour=red");
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    const withSlug = await api("GET", "/api/teams?slug=harbor-city-hawks&foo=1");
    expect(withSlug.status).toBe(400);
    expect(errorOf(withSlug).code).toBe("VALIDATION_ERROR");
  });

  it("a repeated query key is 400, not 500", async () => {
    const res = await api("GET", "/api/teams?sport=hockey&sport=soccer");
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.[0]?.path).toBe("query.sport");
  });
});

describe("GET /api/teams/{id}", () => {
  it("answers the detail by id, by slug and by slug in another case", async () => {
    for (const key of ["tm_hch", "harbor-city-hawks", "HARBOR-CITY-HAWKS"]) {
      const res = await api("GET", `/api/teams/${key}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["team"]);
      expect(res.body.team).toMatchObject({
        id: "tm_hch",
        slug: "harbor-city-hawks",
        name: "Harbor City Hawks",
        sport: "football",
        providerId: "prov_101",
        foundedDate: "1960-08-14",
        viewerCanPostAsTeam: false,
        leagueInfo: { id: "lg_nfl", sport: "football" },
      });
    }
  });

  it("foundedDate is YYYY-MM-DD for every listed team and matches the stored date", async () => {
    const rows = await db().team.findMany({ where: { id: { in: ["tm_whu", "tm_cwt", "tm_fpb"] } } });
    for (const row of rows) {
      const res = await api("GET", `/api/teams/${row.id}`);
      expect(res.status).toBe(200);
      expect(res.body.team.foundedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(res.body.team.foundedDate).toBe(row.foundedDate!.toISOString().slice(0, 10));
    }
  });

  it("tm_hch's teamRecord matches its finished games", async () => {
    const expected = await recordFromGames("tm_hch");
    expect(expected).toEqual({ played: 4, wins: 3, losses: 1, ties: 0 });
    const res = await api("GET", "/api/teams/tm_hch");
    expect(res.status).toBe(200);
    expect(res.body.team.teamRecord).toEqual({
      gamesPlayed: expected.played,
      wins: expected.wins,
      losses: expected.losses,
      ties: 0,
      overtimeLosses: 0,
      summary: `${expected.wins}-${expected.losses}`,
    });
  });

  it("a soccer team's draws appear as ties (W-L-T)", async () => {
    // tm_whu: 1-1 vs kbf, 2-0 at kbf, 2-3 vs kbf, 2-1 at nfd.
    const expected = await recordFromGames("tm_whu");
    expect(expected).toEqual({ played: 4, wins: 2, losses: 1, ties: 1 });
    const res = await api("GET", "/api/teams/tm_whu");
    expect(res.body.team.teamRecord).toEqual({ gamesPlayed: 4, wins: 2, losses: 1, ties: 1, overtimeLosses: 0, summary: "2-1-1" });
  });

  it("hockey counts overtime losses apart (W-L-OTL)", async () => {
    // tm_fpb: W 3-2 OT, L 3-4 OT, W 5-1, W 3-2 → 3 wins, 0 regulation losses, 1 overtime loss.
    const res = await api("GET", "/api/teams/tm_fpb");
    expect(res.status).toBe(200);
    expect(res.body.team.teamRecord).toEqual({ gamesPlayed: 4, wins: 3, losses: 0, ties: 0, overtimeLosses: 1, summary: "3-0-1" });
    // tm_crc (hockey): L 2-6 at gbo, L 3-4 OT vs pfb → 0-1-1.
    const crc = await api("GET", "/api/teams/tm_crc");
    expect(crc.body.team.teamRecord).toEqual({ gamesPlayed: 2, wins: 0, losses: 1, ties: 0, overtimeLosses: 1, summary: "0-1-1" });
  });

  it("football and basketball have no overtime-loss column: an overtime defeat is a loss", async () => {
    // tm_spf (football): L 28-31 OT at crl, W 30-27 OT vs bsb.
    const spf = await api("GET", "/api/teams/tm_spf");
    expect(spf.status).toBe(200);
    expect(spf.body.team.teamRecord).toEqual({ gamesPlayed: 2, wins: 1, losses: 1, ties: 0, overtimeLosses: 0, summary: "1-1" });
    const expectedSpf = await recordFromGames("tm_spf");
    expect(expectedSpf).toEqual({ played: 2, wins: 1, losses: 1, ties: 0 });
    // tm_rvr (basketball): L 104-112, L 109-115 OT, W 103-96.
    const rvr = await api("GET", "/api/teams/tm_rvr");
    expect(rvr.body.team.teamRecord).toEqual({ gamesPlayed: 3, wins: 1, losses: 2, ties: 0, overtimeLosses: 0, summary: "1-2" });
  });

  it("other teams' records match their finished games", async () => {
    for (const id of ["tm_pap", "tm_cwt", "tm_gfg", "tm_lsl"]) {
      const expected = await recordFromGames(id);
      const res = await api("GET", `/api/teams/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.team.teamRecord).toMatchObject({ gamesPlayed: expected.played, wins: expected.wins, losses: expected.losses, ties: expected.ties });
    }
  });

  it.each(["tm_dvs", "dune-valley-scorpions", "DUNE-VALLEY-SCORPIONS"])("archived team %s is 404 NOT_FOUND", async (key) => {
    const res = await api("GET", `/api/teams/${key}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("a missing team is 404 with the exact error body", async () => {
    const res = await api("GET", "/api/teams/tm_nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  it("tm_cwt detail answers sport other with league sport soccer", async () => {
    const res = await api("GET", "/api/teams/clearwater-town");
    expect(res.status).toBe(200);
    expect(res.body.team).toMatchObject({ id: "tm_cwt", sport: "other", leagueInfo: { sport: "soccer" } });
  });

  it("viewerCanPostAsTeam is false anonymously and for a plain fan", async () => {
    const anon = await api("GET", "/api/teams/tm_hch");
    expect(anon.body.team.viewerCanPostAsTeam).toBe(false);
    const { auth } = newUser();
    const fan = await api("GET", "/api/teams/tm_hch", { headers: auth });
    expect(fan.status).toBe(200);
    expect(fan.body.team.viewerCanPostAsTeam).toBe(false);
  });

  it("viewerCanPostAsTeam is true for an admin token", async () => {
    const { auth } = newUser({ admin: true });
    const res = await api("GET", "/api/teams/tm_hch", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.team.viewerCanPostAsTeam).toBe(true);
    const bySlug = await api("GET", "/api/teams/frostport-polar-bears", { headers: auth });
    expect(bySlug.body.team.viewerCanPostAsTeam).toBe(true);
  });

  it("viewerCanPostAsTeam is true for that team's staff only", async () => {
    const { sub, auth } = newUser();
    expect((await api("GET", "/api/user", { headers: auth })).status).toBe(200);
    const userId = await userIdOf(sub);
    await db().teamStaff.create({ data: { userId, teamId: "tm_hch" } });
    const own = await api("GET", "/api/teams/tm_hch", { headers: auth });
    expect(own.status).toBe(200);
    expect(own.body.team.viewerCanPostAsTeam).toBe(true);
    const ownBySlug = await api("GET", "/api/teams/Harbor-City-Hawks", { headers: auth });
    expect(ownBySlug.body.team.viewerCanPostAsTeam).toBe(true);
    const other = await api("GET", "/api/teams/tm_gfg", { headers: auth });
    expect(other.status).toBe(200);
    expect(other.body.team.viewerCanPostAsTeam).toBe(false);
    // Another fan is not staff of tm_hch.
    const { auth: otherAuth } = newUser();
    const stranger = await api("GET", "/api/teams/tm_hch", { headers: otherAuth });
    expect(stranger.body.team.viewerCanPostAsTeam).toBe(false);
  });

  it("an invalid token on this optional-auth route is 401 UNAUTHORIZED", async () => {
    const res = await api("GET", "/api/teams/tm_hch", { headers: { authorization: "Bearer not.a.jwt" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    const expired = await api("GET", "/api/teams/tm_hch", { headers: { authorization: `Bearer ${token("user_expired_teams", { ttlSeconds: -120 })}` } });
    expect(expired.status).toBe(401);
    expect(errorOf(expired).code).toBe("UNAUTHORIZED");
  });

  it("an overlong id is 400 VALIDATION_ERROR at params.id", async () => {
    const res = await api("GET", `/api/teams/${"x".repeat(129)}`);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.[0]?.path).toBe("params.id");
  });

  it("other methods are 405 with Allow", async () => {
    const res = await api("DELETE", "/api/teams/tm_hch");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    const list = await api("POST", "/api/teams", { json: {} });
    expect(list.status).toBe(405);
    expect(errorOf(list).code).toBe("METHOD_NOT_ALLOWED");
  });
});
