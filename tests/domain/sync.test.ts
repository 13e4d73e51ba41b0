import { describe, expect, it } from "vitest";
import { getSyncRun, listSyncRuns } from "../../lib/features/sync/queries";
import { runSync } from "../../lib/features/sync/service";
import { baseFeed, counts, db, diff, expectAllUnchanged, provider, scratchDatabase, snapshot } from "./sync-fixtures";

// The sync engine (runSync) on a scratch database: first run, re-run and updates, dropped and returning rows,
// ownership, failures, concurrency, and the run history (last: it pages through the runs the tests above made). The
// fixture feeds and the HTTP feed are in sync-feeds.test.ts.

scratchDatabase();

describe("runSync: first run, re-run, updates", () => {
  it("creates everything on the first run, then a second identical run changes nothing", async () => {
    const p = provider("first", baseFeed);
    const before = await snapshot();
    const run = await runSync(db, { scope: "all", trigger: "admin", actor: { id: "usr_1", role: "admin" }, provider: p });
    expect(run).toMatchObject({ scope: "all", trigger: "admin", actor: "usr_1", status: "succeeded", error: null });
    expect(run.finishedAt).not.toBeNull();
    const c = counts(run.summary);
    expect(c.leagues).toEqual({ created: 1, updated: 0, archived: 0, unchanged: 0 });
    expect(c.conferences.created).toBe(2);
    expect(c.divisions.created).toBe(3);
    expect(c.teams.created).toBe(3);
    expect(c.players.created).toBe(5);
    expect(c.games.created).toBe(2);
    expect(run.summary!.changes).toHaveLength(16);

    const after = await snapshot();
    expect(diff(before, after)).toHaveLength(16);
    const team = await db.team.findUniqueOrThrow({ where: { id: "tm_first_ra" } });
    expect(team).toMatchObject({
      source: "feed:first",
      providerId: "ra",
      slug: "rivertown-anchors-first",
      sport: "rugby",
      leagueId: "lg_first_rl",
      conferenceId: "cf_first_north",
      divisionId: "dv_first_n1",
      archivedAt: null,
      fanCount: 0,
    });
    expect(team.foundedDate?.toISOString()).toBe("1990-01-02T00:00:00.000Z");
    expect(await db.game.findUniqueOrThrow({ where: { id: "gm_first_g1" } })).toMatchObject({ season: "2026", homeTeamId: "tm_first_ra", homeScore: 20 });
    expect(await db.division.findUniqueOrThrow({ where: { id: "dv_first_open" } })).toMatchObject({ conferenceId: null, leagueId: "lg_first_rl" });

    const again = await runSync(db, { scope: "all", trigger: "cron", provider: p });
    expect(again.status).toBe("succeeded");
    expectAllUnchanged(again.summary);
    expect(counts(again.summary).players.unchanged).toBe(5);
    expect(counts(again.summary).teams.unchanged).toBe(3);
    // Nothing written at all: not even updatedAt moved.
    expect(diff(after, await snapshot())).toEqual([]);
  });

  it("a changed feed updates exactly what changed", async () => {
    let feed = baseFeed();
    const p = provider("upd", () => feed);
    await runSync(db, { scope: "all", trigger: "admin", provider: p });
    const before = await snapshot();

    feed = baseFeed();
    feed.teams[1]!.name = "Ridgeback Bulldogs";
    feed.teams[1]!.slug = "ridgeback-bulls-upd"; // the slug stays
    feed.teams[0]!.players![1]!.availability = "available";
    feed.games[1] = { ...feed.games[1]!, status: "final", homeScore: 7, awayScore: 9, overtime: true };
    feed.leagues[0]!.conferences![0]!.name = "Northern";
    const run = await runSync(db, { scope: "all", trigger: "webhook", provider: p });
    expect(run.status).toBe("succeeded");
    const c = counts(run.summary);
    expect(c.teams).toEqual({ created: 0, updated: 1, archived: 0, unchanged: 2 });
    expect(c.players).toEqual({ created: 0, updated: 1, archived: 0, unchanged: 4 });
    expect(c.games).toEqual({ created: 0, updated: 1, archived: 0, unchanged: 1 });
    expect(c.conferences).toEqual({ created: 0, updated: 1, archived: 0, unchanged: 1 });
    expect(c.leagues.unchanged).toBe(1);
    expect(c.divisions.unchanged).toBe(3);
    expect(run.summary!.changes).toEqual(
      expect.arrayContaining([
        { entity: "teams", id: "tm_upd_rb", change: "updated", fields: ["name"] },
        { entity: "players", id: "pl_upd_ra2", change: "updated", fields: ["availability"] },
        { entity: "games", id: "gm_upd_g2", change: "updated", fields: ["status", "homeScore", "awayScore", "overtime"] },
        { entity: "conferences", id: "cf_upd_north", change: "updated", fields: ["name"] },
      ]),
    );
    expect(diff(before, await snapshot())).toEqual(["conferences:cf_upd_north", "games:gm_upd_g2", "players:pl_upd_ra2", "teams:tm_upd_rb"]);
  });
});

describe("runSync: dropped and returning rows", () => {
  it("archives dropped teams and leagues, sets dropped players inactive, never deletes, and restores what returns", async () => {
    const full = baseFeed();
    let feed = baseFeed();
    const p = provider("drop", () => feed);
    await runSync(db, { scope: "all", trigger: "admin", provider: p });
    const rowsBefore = { teams: await db.team.count(), players: await db.player.count(), games: await db.game.count() };

    // Drop team rc (with its 2 players) and player ra2, and the game that involved rc.
    feed = { ...full, teams: full.teams.filter((t) => t.id !== "rc"), games: full.games.filter((g) => g.id !== "g2") };
    feed.teams[0] = { ...feed.teams[0]!, players: feed.teams[0]!.players!.filter((pl) => pl.id !== "ra2") };
    const run = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    expect(run.status).toBe("succeeded");
    const c = counts(run.summary);
    expect(c.teams).toEqual({ created: 0, updated: 0, archived: 1, unchanged: 2 });
    expect(c.players).toEqual({ created: 0, updated: 0, archived: 3, unchanged: 2 });
    expect(c.games).toEqual({ created: 0, updated: 0, archived: 0, unchanged: 1 });
    expect((await db.team.findUniqueOrThrow({ where: { id: "tm_drop_rc" } })).archivedAt).toBeInstanceOf(Date);
    expect((await db.player.findMany({ where: { id: { in: ["pl_drop_ra2", "pl_drop_rc1", "pl_drop_rc2"] } } })).map((pl) => pl.active)).toEqual([
      false,
      false,
      false,
    ]);
    // Nothing deleted; the dropped game is left as it was.
    expect({ teams: await db.team.count(), players: await db.player.count(), games: await db.game.count() }).toEqual(rowsBefore);
    expect(await db.game.findUniqueOrThrow({ where: { id: "gm_drop_g2" } })).toMatchObject({ status: "scheduled" });

    // A re-run of the reduced feed is all unchanged (already archived rows are not archived again).
    const again = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    expectAllUnchanged(again.summary);

    // They come back: restored.
    feed = baseFeed();
    const back = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    const b = counts(back.summary);
    expect(b.teams).toEqual({ created: 0, updated: 1, archived: 0, unchanged: 2 });
    expect(b.players).toEqual({ created: 0, updated: 3, archived: 0, unchanged: 2 });
    expect(back.summary!.changes).toEqual(
      expect.arrayContaining([
        { entity: "teams", id: "tm_drop_rc", change: "restored", fields: ["archivedAt"] },
        { entity: "players", id: "pl_drop_rc1", change: "restored", fields: ["active"] },
      ]),
    );
    expect((await db.team.findUniqueOrThrow({ where: { id: "tm_drop_rc" } })).archivedAt).toBeNull();
    expect(await db.player.count({ where: { id: { startsWith: "pl_drop_" }, active: false } })).toBe(0);

    // A whole league dropped: the league is archived (scope leagues); its teams when the teams sync runs.
    feed = { version: 1, leagues: [], teams: [], games: [] };
    const leagues = await runSync(db, { scope: "leagues", trigger: "admin", provider: p });
    expect(counts(leagues.summary).leagues).toEqual({ created: 0, updated: 0, archived: 1, unchanged: 0 });
    expect(counts(leagues.summary).teams).toEqual({ created: 0, updated: 0, archived: 0, unchanged: 0 });
    const teams = await runSync(db, { scope: "teams", trigger: "admin", provider: p });
    expect(counts(teams.summary).teams.archived).toBe(3);
    expect(counts(teams.summary).players.archived).toBe(5);
    expect(await db.league.findUniqueOrThrow({ where: { id: "lg_drop_rl" } })).toMatchObject({ archivedAt: expect.any(Date) });
    expect(await db.conference.count({ where: { leagueId: "lg_drop_rl" } })).toBe(2);
  });

  it("a provider's inactive status keeps rows archived / inactive", async () => {
    const feed = baseFeed();
    feed.leagues[0]!.status = "inactive";
    feed.teams[2]!.status = "inactive";
    feed.teams[2]!.players![0]!.active = false;
    const p = provider("inact", () => feed);
    const run = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    expect(run.status).toBe("succeeded");
    expect((await db.league.findUniqueOrThrow({ where: { id: "lg_inact_rl" } })).archivedAt).toBeInstanceOf(Date);
    expect((await db.team.findUniqueOrThrow({ where: { id: "tm_inact_rc" } })).archivedAt).toBeInstanceOf(Date);
    expect((await db.team.findUniqueOrThrow({ where: { id: "tm_inact_ra" } })).archivedAt).toBeNull();
    expect((await db.player.findUniqueOrThrow({ where: { id: "pl_inact_rc1" } })).active).toBe(false);
    const before = await snapshot();
    expectAllUnchanged((await runSync(db, { scope: "all", trigger: "admin", provider: p })).summary);
    expect(diff(before, await snapshot())).toEqual([]);
  });
});

describe("runSync: ownership", () => {
  it("never modifies or archives rows of other sources, even with the same provider ids", async () => {
    // The seed's provider rows use source "provider"; a feed with their provider ids and another name leaves them alone.
    const feed = baseFeed();
    feed.leagues[0]!.id = "prov_lg_1";
    feed.teams = feed.teams.map((t) => ({ ...t, leagueId: "prov_lg_1" }));
    feed.games = feed.games.map((g) => ({ ...g, leagueId: "prov_lg_1" }));
    feed.teams[0]!.id = "prov_101";
    feed.games[0]!.homeTeamId = "prov_101";
    const run = await runSync(db, { scope: "all", trigger: "admin", provider: provider("own", () => feed) });
    expect(run.status).toBe("succeeded");
    expect(await db.team.findUniqueOrThrow({ where: { id: "tm_own_prov_101" } })).toMatchObject({ source: "feed:own", providerId: "prov_101" });
    // An empty feed archives only this provider's rows.
    const empty = await runSync(db, { scope: "all", trigger: "admin", provider: provider("own", () => ({ version: 1, leagues: [] })) });
    expect(counts(empty.summary).teams.archived).toBe(3);
    expect(counts(empty.summary).leagues.archived).toBe(1);
    expect(await db.team.count({ where: { source: { in: ["provider", "manual"] }, archivedAt: { not: null } } })).toBe(1); // tm_dvs, seeded archived
    // (afterAll also checks every seeded row byte for byte.)
  });

  it("fails without writing when an id it would create belongs to another owner", async () => {
    await db.team.create({ data: { id: "tm_clash_ra", slug: "manual-clash-team", name: "Manual Clash", source: "manual" } });
    const before = await snapshot();
    const run = await runSync(db, { scope: "all", trigger: "admin", provider: provider("clash", baseFeed) });
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/Team id tm_clash_ra already exists and is not owned by this sync/);
    expect(diff(before, await snapshot())).toEqual([]);
    expect(await db.team.findUniqueOrThrow({ where: { id: "tm_clash_ra" } })).toMatchObject({ name: "Manual Clash", source: "manual" });
  });

  it("fails without writing when a league, conference, division, player or game id it would create belongs to another owner", async () => {
    const league = await db.league.findFirstOrThrow({ where: { source: { not: { startsWith: "feed:" } } }, orderBy: { id: "asc" } });
    const [home, away] = await db.team.findMany({ where: { source: { not: { startsWith: "feed:" } } }, orderBy: { id: "asc" }, take: 2 });
    const squatters = [
      {
        label: "League",
        id: "lg_clashl_rl",
        make: (id: string) => db.league.create({ data: { id, slug: "manual-clash-league", name: "Manual Clash League" } }),
        drop: (id: string) => db.league.delete({ where: { id } }),
      },
      {
        label: "Conference",
        id: "cf_clashc_north",
        make: (id: string) => db.conference.create({ data: { id, leagueId: league.id, name: "Manual" } }),
        drop: (id: string) => db.conference.delete({ where: { id } }),
      },
      {
        label: "Division",
        id: "dv_clashd_open",
        make: (id: string) => db.division.create({ data: { id, leagueId: league.id, name: "Manual" } }),
        drop: (id: string) => db.division.delete({ where: { id } }),
      },
      {
        label: "Player",
        id: "pl_clashp_rb1",
        make: (id: string) => db.player.create({ data: { id, teamId: home!.id, name: "Manual" } }),
        drop: (id: string) => db.player.delete({ where: { id } }),
      },
      {
        label: "Game",
        id: "gm_clashg_g2",
        make: (id: string) =>
          db.game.create({ data: { id, leagueId: league.id, homeTeamId: home!.id, awayTeamId: away!.id, startsAt: new Date("2026-09-01T18:00:00Z") } }),
        drop: (id: string) => db.game.delete({ where: { id } }),
      },
    ];
    for (const s of squatters) {
      await s.make(s.id);
      try {
        const before = await snapshot();
        const run = await runSync(db, { scope: "all", trigger: "admin", provider: provider(s.id.split("_")[1]!, baseFeed) });
        expect(run.status, s.label).toBe("failed");
        expect(run.error).toBe(`${s.label} id ${s.id} already exists and is not owned by this sync; nothing was changed.`);
        expect(diff(before, await snapshot())).toEqual([]);
      } finally {
        await s.drop(s.id);
      }
    }
  });
});

describe("runSync: failures change nothing", () => {
  it("a feed whose later part violates a constraint rolls everything back and records a failed run", async () => {
    const feed = baseFeed();
    // Leagues, conferences, divisions and the first teams are written before this one hits the unique slug of a seeded team.
    feed.teams.push({ id: "dup", leagueId: "rl", name: "Harbor City Hawks", slug: "harbor-city-hawks" });
    const before = await snapshot();
    const run = await runSync(db, { scope: "all", trigger: "admin", actor: { id: "usr_x", role: "admin" }, provider: provider("midway", () => feed) });
    expect(run).toMatchObject({ status: "failed", summary: null, actor: "usr_x" });
    expect(run.error).toMatch(/unique/i);
    expect(run.finishedAt).not.toBeNull();
    expect(diff(before, await snapshot())).toEqual([]);
    expect(await db.league.count({ where: { source: "feed:midway" } })).toBe(0);
    expect(await getSyncRun(db, run.id)).toEqual(run);
  });

  it.each([
    ["not an object", "nope", /Invalid feed/],
    ["a wrong version", { version: 2, leagues: [] }, /version/],
    ["an unknown field", { version: 1, leagues: [], extra: 1 }, /Unrecognized key|extra/],
    ["a team in an unknown league", { ...baseFeed(), teams: [{ id: "x", leagueId: "nope", name: "X" }], games: [] }, /teams\.0\.leagueId: Unknown league nope/],
    ["a bad colour", { ...baseFeed(), leagues: [{ ...baseFeed().leagues[0]!, primaryColor: "red" }] }, /leagues\.0\.primaryColor/],
    ["duplicate team ids", { ...baseFeed(), teams: [baseFeed().teams[0]!, baseFeed().teams[0]!], games: [] }, /Duplicate team id ra/],
    ["a game with one score", { ...baseFeed(), games: [{ ...baseFeed().games[0]!, awayScore: undefined }] }, /both scores/],
  ])("a malformed feed (%s) is rejected before anything is written", async (_label, feed, message) => {
    const before = await snapshot();
    const run = await runSync(db, { scope: "all", trigger: "admin", provider: provider("bad", () => feed) });
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(message);
    expect(diff(before, await snapshot())).toEqual([]);
  });

  it("a provider that throws is recorded as a failed run", async () => {
    const run = await runSync(db, {
      scope: "all",
      trigger: "cron",
      provider: { name: "feed:down", fetchFeed: async () => Promise.reject(new Error("provider unreachable")) },
    });
    expect(run).toMatchObject({ status: "failed", error: "provider unreachable", trigger: "cron" });
  });

  it("a teams sync before the leagues were ever synced fails with a clear message", async () => {
    const run = await runSync(db, { scope: "teams", trigger: "admin", provider: provider("order", baseFeed) });
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/League rl is not synced yet/);
    const leagues = await runSync(db, { scope: "leagues", trigger: "admin", provider: provider("order", baseFeed) });
    expect(counts(leagues.summary).leagues.created).toBe(1);
    expect(counts(leagues.summary).teams.created).toBe(0);
    const teams = await runSync(db, { scope: "teams", trigger: "admin", provider: provider("order", baseFeed) });
    expect(counts(teams.summary).teams.created).toBe(3);
    expect(counts(teams.summary).games.created).toBe(2);
    expect(counts(teams.summary).leagues).toEqual({ created: 0, updated: 0, archived: 0, unchanged: 0 });
  });

  it("a dry run reports the changes and writes nothing", async () => {
    const before = await snapshot();
    const run = await runSync(db, { scope: "all", trigger: "admin", dryRun: true, provider: provider("dry", baseFeed) });
    expect(run.status).toBe("succeeded");
    expect(run.summary!.dryRun).toBe(true);
    expect(counts(run.summary).teams.created).toBe(3);
    expect(diff(before, await snapshot())).toEqual([]);
  });
});

describe("runSync: concurrency", () => {
  it("concurrent runs do not interleave: one creates, the others then find nothing to do", async () => {
    const p = provider("conc", baseFeed);
    const runs = await Promise.all(Array.from({ length: 4 }, () => runSync(db, { scope: "all", trigger: "webhook", provider: p })));
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
    const creators = runs.filter((r) => counts(r.summary).teams.created > 0);
    expect(creators).toHaveLength(1);
    expect(counts(creators[0]!.summary).players.created).toBe(5);
    for (const r of runs.filter((x) => x !== creators[0])) expectAllUnchanged(r.summary);
    expect(await db.team.count({ where: { source: "feed:conc" } })).toBe(3);
    expect(await db.player.count({ where: { id: { startsWith: "pl_conc_" } } })).toBe(5);
    expect(await db.game.count({ where: { id: { startsWith: "gm_conc_" } } })).toBe(2);
  });

  it("concurrent changing runs serialize: the final state is one feed's, never a mix", async () => {
    const feeds = [0, 1, 2].map((i) => {
      const f = baseFeed();
      for (const t of f.teams) t.city = `City ${i}`;
      for (const g of f.games) g.venue = `Venue ${i}`;
      return f;
    });
    const runs = await Promise.all(feeds.map((f) => runSync(db, { scope: "all", trigger: "admin", provider: provider("mix", () => f) })));
    expect(runs.every((r) => r.status === "succeeded")).toBe(true);
    expect(runs.filter((r) => counts(r.summary).teams.created === 3)).toHaveLength(1);
    const cities = new Set((await db.team.findMany({ where: { source: "feed:mix" } })).map((t) => t.city));
    const venues = new Set((await db.game.findMany({ where: { id: { startsWith: "gm_mix_" } } })).map((g) => g.venue));
    expect(cities.size).toBe(1);
    expect(venues.size).toBe(1);
    expect([...venues][0]!.slice(-1)).toBe([...cities][0]!.slice(-1));
  });
});

describe("run history", () => {
  it("lists runs newest first with a working cursor, and reads one", async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = await listSyncRuns(db, { limit: 3, cursor });
      expect(page.runs.length).toBeLessThanOrEqual(3);
      all.push(...page.runs.map((r) => r.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    const rows = await db.syncRun.findMany({ orderBy: [{ startedAt: "desc" }, { id: "desc" }] });
    expect(all).toEqual(rows.map((r) => r.id));
    expect(rows.length).toBeGreaterThan(10);
    expect(await getSyncRun(db, rows[0]!.id)).toMatchObject({ id: rows[0]!.id });
    expect(await getSyncRun(db, "00000000-0000-7000-8000-000000000000")).toBeNull();
    expect(await getSyncRun(db, "not-a-uuid")).toBeNull();
    await expect(listSyncRuns(db, { cursor: "garbage!" })).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
