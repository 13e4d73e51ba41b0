import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { getHeadToHead } from "../../lib/core/teams/service";

// GET /api/teams/{id}/roster, /head-to-head?opponentId=, /achievements (all public).

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const notFoundBody = { success: false, error: { code: "NOT_FOUND", message: expect.any(String) } };
const PLAYER_KEYS = ["id", "name", "jersey", "position", "role", "duty", "photo", "availability"];

describe("GET /api/teams/{id}/roster", () => {
  it("lists the active players only, ordered by jersey number then name, as the bare { players }", async () => {
    const res = await api("GET", "/api/teams/tm_hch/roster");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["players"]);
    const rows = await db().player.findMany({ where: { teamId: "tm_hch", active: true } });
    expect(rows).toHaveLength(11);
    const expected = [...rows].sort((a, b) => Number(a.jersey) - Number(b.jersey) || a.name.localeCompare(b.name)).map((p) => p.id);
    const players = res.body.players as Record<string, unknown>[];
    expect(players.map((p) => p.id)).toEqual(expected);
    expect(players.map((p) => p.id)).not.toContain("pl_hch_12");
    const jerseys = players.map((p) => Number(p.jersey));
    expect(jerseys).toEqual([...jerseys].sort((a, b) => a - b));
  });

  it("omits photo without art and availability when available; fields match the rows", async () => {
    const res = await api("GET", "/api/teams/tm_hch/roster");
    const rows = new Map((await db().player.findMany({ where: { teamId: "tm_hch" } })).map((p) => [p.id, p]));
    let withPhoto = 0;
    let withoutPhoto = 0;
    for (const p of res.body.players as Record<string, unknown>[]) {
      for (const key of Object.keys(p)) expect(PLAYER_KEYS).toContain(key);
      const row = rows.get(p.id as string)!;
      expect(row.active).toBe(true);
      expect(p).toMatchObject({ name: row.name, jersey: row.jersey, position: row.position, role: row.role, duty: row.duty });
      if (row.photo) {
        expect(p.photo).toBe(row.photo);
        withPhoto++;
      } else {
        expect(p).not.toHaveProperty("photo");
        withoutPhoto++;
      }
      if (row.availability === "available") expect(p).not.toHaveProperty("availability");
      else expect(p.availability).toBe(row.availability);
    }
    expect(withPhoto).toBeGreaterThan(0);
    expect(withoutPhoto).toBeGreaterThan(0);
    const byId = new Map((res.body.players as { id: string }[]).map((p) => [p.id, p]));
    expect(byId.get("pl_hch_09")).toMatchObject({ availability: "injured" });
    expect(byId.get("pl_hch_10")).toMatchObject({ availability: "suspended" });
    expect(byId.get("pl_hch_11")).toMatchObject({ availability: "unavailable" });
    expect(byId.get("pl_hch_01")).toEqual({
      id: "pl_hch_01",
      name: "Marcus Bell",
      jersey: "12",
      position: "QB",
      role: "starter",
      duty: "offense",
      photo: "https://cdn.example.com/players/pl_hch_01.png",
    });
    expect(byId.get("pl_hch_03")).not.toHaveProperty("photo");
  });

  it("takes a slug (case-insensitive); a team without players has an empty roster", async () => {
    const bySlug = await api("GET", "/api/teams/Harbor-City-Hawks/roster");
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual((await api("GET", "/api/teams/tm_hch/roster")).body);
    const empty = await api("GET", "/api/teams/tm_gfg/roster");
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ players: [] });
  });

  it.each(["tm_nope", "tm_dvs", "dune-valley-scorpions", "Dune-Valley-Scorpions"])("%s (unknown or archived) is 404", async (id) => {
    const res = await api("GET", `/api/teams/${id}/roster`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });
});

describe("GET /api/teams/{id}/head-to-head", () => {
  const h2h = (id: string, opponentId?: string) =>
    api("GET", `/api/teams/${encodeURIComponent(id)}/head-to-head${opponentId === undefined ? "" : `?opponentId=${encodeURIComponent(opponentId)}`}`);

  /** The expected answer, computed from db().game rows. */
  async function expected(a: string, b: string) {
    const games = await db().game.findMany({
      where: {
        status: "final",
        homeScore: { not: null },
        awayScore: { not: null },
        OR: [
          { homeTeamId: a, awayTeamId: b },
          { homeTeamId: b, awayTeamId: a },
        ],
      },
      orderBy: [{ startsAt: "desc" }, { id: "desc" }],
    });
    let wins = 0;
    let losses = 0;
    let ties = 0;
    for (const g of games) {
      const mine = g.homeTeamId === a ? g.homeScore! : g.awayScore!;
      const theirs = g.homeTeamId === a ? g.awayScore! : g.homeScore!;
      if (mine > theirs) wins++;
      else if (mine < theirs) losses++;
      else ties++;
    }
    const meetings = games.slice(0, 5).map((g) => {
      const winnerId = g.homeScore! > g.awayScore! ? g.homeTeamId : g.awayScore! > g.homeScore! ? g.awayTeamId : null;
      return {
        gameId: g.id,
        playedAt: g.startsAt.toISOString(),
        season: g.season,
        venue: g.venue,
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        homeScore: g.homeScore,
        awayScore: g.awayScore,
        overtime: g.overtime,
        winnerId,
        result: winnerId === null ? "tie" : winnerId === a ? "win" : "loss",
      };
    });
    return { record: { gamesPlayed: games.length, wins, losses, ties }, recentMeetings: meetings };
  }

  it.each([
    ["tm_hch", "tm_gfg"],
    ["tm_gfg", "tm_hch"],
    ["tm_lsl", "tm_rvr"],
    ["tm_rvr", "tm_lsl"],
    ["tm_fpb", "tm_mhm"],
    ["tm_whu", "tm_kbf"],
    ["tm_kbf", "tm_whu"],
  ])("%s vs %s matches the finished games in the database", async (a, b) => {
    const res = await h2h(a, b);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const want = await expected(a, b);
    expect(want.record.gamesPlayed).toBe(3);
    expect(res.body.data.record).toEqual(want.record);
    expect(res.body.data.recentMeetings).toEqual(want.recentMeetings);
    expect(res.body.data.team).toMatchObject({ id: a });
    expect(res.body.data.opponent).toMatchObject({ id: b });
    for (const m of res.body.data.recentMeetings) expect(m.playedAt).toMatch(ISO);
  });

  it("seeded facts: hch beat gfg twice and lost once; the upcoming meeting is not counted", async () => {
    const res = await h2h("tm_hch", "tm_gfg");
    expect(res.body.data.record).toEqual({ gamesPlayed: 3, wins: 2, losses: 1, ties: 0 });
    const ids = res.body.data.recentMeetings.map((m: { gameId: string }) => m.gameId);
    expect(ids).toEqual(["gm_nfl_010", "gm_nfl_005", "gm_nfl_001"]);
    expect(ids).not.toContain("gm_nfl_013");
    expect(res.body.data.recentMeetings[0]).toMatchObject({ homeTeamId: "tm_hch", homeScore: 14, awayScore: 17, winnerId: "tm_gfg", result: "loss" });
    expect(res.body.data.recentMeetings[1]).toMatchObject({ homeTeamId: "tm_gfg", winnerId: "tm_hch", result: "win" });
    const reverse = await h2h("tm_gfg", "tm_hch");
    expect(reverse.body.data.record).toEqual({ gamesPlayed: 3, wins: 1, losses: 2, ties: 0 });
  });

  it("overtime and draws: fpb–mhm carries the overtime flag, whu–kbf a draw with winnerId null", async () => {
    const hockey = await h2h("tm_fpb", "tm_mhm");
    expect(hockey.body.data.recentMeetings.map((m: { overtime: boolean }) => m.overtime)).toEqual([false, true, true]);
    expect(hockey.body.data.record).toEqual({ gamesPlayed: 3, wins: 2, losses: 1, ties: 0 });
    const soccer = await h2h("tm_whu", "tm_kbf");
    expect(soccer.body.data.record).toEqual({ gamesPlayed: 3, wins: 1, losses: 1, ties: 1 });
    const draw = soccer.body.data.recentMeetings.find((m: { gameId: string }) => m.gameId === "gm_psl_001");
    expect(draw).toMatchObject({ homeScore: 1, awayScore: 1, winnerId: null, result: "tie" });
  });

  it("teams that never met have an empty series", async () => {
    const res = await h2h("tm_hch", "tm_lsl");
    expect(res.status).toBe(200);
    expect(res.body.data.record).toEqual({ gamesPlayed: 0, wins: 0, losses: 0, ties: 0 });
    expect(res.body.data.recentMeetings).toEqual([]);
  });

  it("both sides take slugs", async () => {
    const res = await h2h("harbor-city-hawks", "Granite-Falls-Grizzlies");
    expect(res.status).toBe(200);
    expect(res.body.data.team.id).toBe("tm_hch");
    expect(res.body.data.opponent.id).toBe("tm_gfg");
    expect(res.body.data.record).toEqual({ gamesPlayed: 3, wins: 2, losses: 1, ties: 0 });
  });

  it("a missing or empty opponentId is 400 VALIDATION_ERROR on query.opponentId", async () => {
    for (const res of [await h2h("tm_hch"), await h2h("tm_hch", "")]) {
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.[0]?.path).toBe("query.opponentId");
    }
  });

  it.each([
    ["tm_hch", "tm_hch"],
    ["tm_hch", "harbor-city-hawks"],
    ["harbor-city-hawks", "tm_hch"],
    ["Harbor-City-Hawks", "HARBOR-CITY-HAWKS"],
    ["tm_nope", "tm_nope"],
  ])("%s vs %s (the same team) is 400 VALIDATION_ERROR", async (a, b) => {
    const res = await h2h(a, b);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    expect(errorOf(res).details?.[0]?.path).toBe("query.opponentId");
  });

  it.each([
    ["tm_nope", "tm_gfg"],
    ["tm_hch", "tm_nope"],
    ["tm_hch", "tm_dvs"],
    ["tm_dvs", "tm_hch"],
    ["tm_hch", "dune-valley-scorpions"],
  ])("%s vs %s (unknown or archived side) is 404", async (a, b) => {
    const res = await h2h(a, b);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });

  it("unknown query parameters are 400", async () => {
    const res = await api("GET", "/api/teams/tm_hch/head-to-head?opponentId=tm_gfg&season=2026");
    expect(res.status).toBe(400);
    expect(errorOf(res).details?.[0]?.path).toBe("query.season");
  });

  // Only three meetings per pair are seeded; the five-meeting window is checked on games that live only inside a
  // rolled-back transaction (other suites read the games table).
  it("keeps the five most recent of more meetings and counts all of them (rolled-back rows)", async () => {
    class Rollback extends Error {}
    const tag = `gm_h2h_${randomBytes(4).toString("hex")}`;
    const outcome = await db()
      .$transaction(
        async (tx) => {
          const extra = [
            ["tm_crl", "tm_tbw", "2025-09-01T00:00:00.000Z", 10, 3, "final"],
            ["tm_tbw", "tm_crl", "2025-09-08T00:00:00.000Z", 7, 7, "final"],
            ["tm_crl", "tm_tbw", "2025-09-15T00:00:00.000Z", 0, 3, "final"],
            ["tm_tbw", "tm_crl", "2025-09-22T00:00:00.000Z", 14, 21, "final"],
            ["tm_crl", "tm_tbw", "2025-09-29T00:00:00.000Z", 3, 0, "final"],
            ["tm_crl", "tm_tbw", "2025-10-06T00:00:00.000Z", 6, 9, "final"],
            ["tm_crl", "tm_tbw", "2025-10-13T00:00:00.000Z", 1, 0, "live"],
            ["tm_crl", "tm_tbw", "2025-10-20T00:00:00.000Z", null, null, "final"],
          ] as const;
          await tx.game.createMany({
            data: extra.map(([home, away, at, hs, as, status], i) => ({
              id: `${tag}_${i}`,
              leagueId: "lg_nfl",
              season: "2025",
              homeTeamId: home,
              awayTeamId: away,
              startsAt: new Date(at),
              status,
              homeScore: hs,
              awayScore: as,
            })),
          });
          const seeded = await tx.game.count({
            where: {
              status: "final",
              homeScore: { not: null },
              OR: [
                { homeTeamId: "tm_crl", awayTeamId: "tm_tbw" },
                { homeTeamId: "tm_tbw", awayTeamId: "tm_crl" },
              ],
              NOT: { id: { startsWith: tag } },
            },
          });
          expect(seeded).toBe(1); // gm_nfl_011: tbw 24–21 crl, 2026-11-15
          const r = await getHeadToHead(tx as never, "tm_crl", "tm_tbw");
          // crl: won 10–3, drew 7–7, lost 0–3, won 21–14, won 3–0, lost 6–9, lost 21–24 (seeded).
          expect(r.record).toEqual({ gamesPlayed: 7, wins: 3, losses: 3, ties: 1 });
          expect(r.recentMeetings.map((m) => m.gameId)).toEqual(["gm_nfl_011", `${tag}_5`, `${tag}_4`, `${tag}_3`, `${tag}_2`]);
          expect(r.recentMeetings.map((m) => m.result)).toEqual(["loss", "loss", "win", "win", "loss"]);
          throw new Rollback("rollback");
        },
        { timeout: 30_000, maxWait: 10_000 },
      )
      .catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(Rollback);
    expect(await db().game.count({ where: { id: { startsWith: tag } } })).toBe(0);
  });
});

describe("GET /api/teams/{id}/achievements", () => {
  it("lists the team's badges newest first, every field, in the envelope", async () => {
    const res = await api("GET", "/api/teams/tm_hch/achievements");
    expect(res.status).toBe(200);
    const rows = await db().teamAchievement.findMany({ where: { teamId: "tm_hch" }, orderBy: { awardedAt: "desc" } });
    expect(rows).toHaveLength(3);
    expect(res.body).toEqual({
      success: true,
      data: {
        achievements: rows.map((a) => ({
          id: a.id,
          key: a.key,
          title: a.title,
          description: a.description,
          icon: a.icon,
          season: a.season,
          awardedAt: a.awardedAt.toISOString(),
        })),
      },
    });
    expect(res.body.data.achievements.map((a: { key: string }) => a.key)).toEqual(["fans-100k", "champions-2025", "division-2025"]);
    expect(res.body.data.achievements[0].season).toBeNull();
  });

  it("takes a slug; a team without badges has an empty list", async () => {
    const res = await api("GET", "/api/teams/FROSTPORT-POLAR-BEARS/achievements");
    expect(res.status).toBe(200);
    expect(res.body.data.achievements.map((a: { id: string }) => a.id)).toEqual(["ach_fpb_cup_2026"]);
    const none = await api("GET", "/api/teams/tm_gfg/achievements");
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ success: true, data: { achievements: [] } });
  });

  it.each(["tm_nope", "tm_dvs", "dune-valley-scorpions"])("%s (unknown or archived) is 404", async (id) => {
    const res = await api("GET", `/api/teams/${id}/achievements`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });
});
