import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import { seed } from "../../dev/seed/seed";
import { parseFeed, type FeedInput } from "../../lib/features/sync/payload";
import { fixtureProvider, httpProvider, type FeedProvider } from "../../lib/features/sync/provider";
import { getSyncRun, listSyncRuns } from "../../lib/features/sync/queries";
import { runSync, SYNC_ENTITIES, type SyncSummary } from "../../lib/features/sync/service";

const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const url = new URL(ADMIN);
url.pathname = `/fan_sync_${Math.random().toString(36).slice(2, 10)}`;
const db = createDb(url.toString(), 6);

const TABLES = ["leagues", "conferences", "divisions", "teams", "players", "games"] as const;
type Snapshot = Map<string, string>; // "<table>:<id>" → row JSON

async function snapshot(): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const t of TABLES) {
    for (const row of await db.$queryRawUnsafe<{ id: string }[]>(`SELECT * FROM ${t} ORDER BY id`)) out.set(`${t}:${row.id}`, JSON.stringify(row));
  }
  return out;
}

let seeded: Snapshot;

beforeAll(async () => {
  await ensureDatabase(url.toString());
  await migrate(url.toString());
  await seed(db);
  seeded = await snapshot();
});

afterAll(async () => {
  // Whatever the tests synced, the seeded rows (other sources) are exactly as the seed wrote them.
  const now = await snapshot();
  for (const [key, row] of seeded) expect(now.get(key), key).toBe(row);
  await db.$disconnect();
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  await c.end();
});

/** A small, valid feed: one league (2 conferences, 1 division each + 1 league-level division), 3 teams, 5 players, 2 games. */
function baseFeed(): FeedInput & Required<Pick<FeedInput, "teams" | "games">> {
  return {
    version: 1,
    leagues: [
      {
        id: "rl",
        slug: "rugby-league-x",
        name: "Rugby League X",
        sport: "rugby",
        season: "2026",
        conferences: [
          { id: "north", name: "North", divisions: [{ id: "n1", name: "North One" }] },
          { id: "south", name: "South", divisions: [{ id: "s1", name: "South One" }] },
        ],
        divisions: [{ id: "open", name: "Open" }],
      },
    ],
    teams: [
      {
        id: "ra",
        leagueId: "rl",
        conferenceId: "north",
        divisionId: "n1",
        name: "Rivertown Anchors",
        city: "Rivertown",
        foundedDate: "1990-01-02",
        players: [
          { id: "ra1", name: "Ann One", jersey: "1" },
          { id: "ra2", name: "Ben Two", jersey: "2", availability: "injured" },
        ],
      },
      { id: "rb", leagueId: "rl", conferenceId: "south", divisionId: "s1", name: "Ridgeback Bulls", players: [{ id: "rb1", name: "Cal Three" }] },
      {
        id: "rc",
        leagueId: "rl",
        divisionId: "open",
        name: "Rockport Cutters",
        rank: 3,
        players: [
          { id: "rc1", name: "Dee Four" },
          { id: "rc2", name: "Eve Five" },
        ],
      },
    ],
    games: [
      { id: "g1", leagueId: "rl", homeTeamId: "ra", awayTeamId: "rb", startsAt: "2026-09-01T18:00:00Z", status: "final", homeScore: 20, awayScore: 10 },
      { id: "g2", leagueId: "rl", homeTeamId: "rb", awayTeamId: "rc", startsAt: "2027-01-01T18:00:00Z", status: "scheduled" },
    ],
  };
}

/** Each test syncs under its own provider name, so its rows (ids lg_<ns>_…) never meet another test's. */
function provider(name: string, feed: () => unknown): FeedProvider {
  return { name: `feed:${name}`, fetchFeed: async () => uniqueSlugs(structuredClone(feed()), name) as FeedInput };
}

/** Slugs are unique across the table: suffix league slugs and derived team slugs with the test's name. */
function uniqueSlugs(feed: unknown, name: string): unknown {
  const f = feed as { leagues?: { slug?: string }[]; teams?: { slug?: string; name?: string }[] };
  if (!f || typeof f !== "object" || !Array.isArray(f.leagues)) return feed;
  for (const l of f.leagues) if (typeof l.slug === "string") l.slug = `${l.slug}-${name}`;
  for (const t of f.teams ?? []) if (t.slug === undefined && typeof t.name === "string") t.slug = `${t.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${name}`;
  return f;
}

const counts = (s: SyncSummary | null) =>
  Object.fromEntries(SYNC_ENTITIES.map((e) => [e, s![e]])) as Record<
    (typeof SYNC_ENTITIES)[number],
    { created: number; updated: number; archived: number; unchanged: number }
  >;

function expectAllUnchanged(s: SyncSummary | null) {
  for (const e of SYNC_ENTITIES) expect({ e, ...s![e], unchanged: 0 }).toEqual({ e, created: 0, updated: 0, archived: 0, unchanged: 0 });
  expect(s!.changes).toEqual([]);
}

/** Rows that differ between two snapshots (added, removed or changed), as "<table>:<id>". */
function diff(a: Snapshot, b: Snapshot): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}

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

describe("fixture feeds", () => {
  it("the repository's feed files are valid; the black-box feed only has archived rows of its own league", async () => {
    parseFeed(await fixtureProvider("lib/features/sync/fixtures/feed.json").fetchFeed());
    const bb = parseFeed(await fixtureProvider("lib/features/sync/fixtures/blackbox.json").fetchFeed());
    expect(bb.leagues.every((l) => l.status === "inactive")).toBe(true);
    expect(bb.teams.every((t) => t.status === "inactive")).toBe(true);
    expect(bb.games).toEqual([]);
  });

  it("the dev feed syncs and re-syncs cleanly", async () => {
    const p = fixtureProvider("lib/features/sync/fixtures/feed.json");
    const first = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    expect(first.status).toBe("succeeded");
    expect(counts(first.summary).teams.created).toBe(4);
    expectAllUnchanged((await runSync(db, { scope: "all", trigger: "admin", provider: p })).summary);
    const missing = await runSync(db, { scope: "all", trigger: "admin", provider: fixtureProvider("lib/features/sync/fixtures/nope.json") });
    expect(missing).toMatchObject({ status: "failed", error: expect.stringMatching(/could not be read: ENOENT/) });
  });
});

describe("HTTP feed: size limit while streaming", () => {
  const LIMIT = 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 0x20); // whitespace: valid JSON padding, were it ever parsed
  const SERVER_CAP = 64 * 1024 * 1024; // a stand-in for "endless": the server stops here if nobody hangs up

  /** A feed server: "/endless" streams chunked whitespace without Content-Length; "/small" a chunked feed. */
  async function feedServer(small: unknown) {
    const seen = { sent: 0, closedEarly: false, finished: false };
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" }); // no Content-Length: chunked
      if (req.url === "/small") {
        const text = JSON.stringify(small);
        res.write(text.slice(0, 10));
        return res.end(text.slice(10));
      }
      res.on("close", () => {
        if (!res.writableFinished) seen.closedEarly = true;
      });
      const pump = () => {
        while (!res.destroyed && seen.sent < SERVER_CAP) {
          seen.sent += CHUNK.byteLength;
          if (!res.write(CHUNK)) return void res.once("drain", pump);
        }
        if (!res.destroyed) {
          seen.finished = true;
          res.end();
        }
      };
      res.write("{");
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    };
    return { base, seen, close };
  }

  it("an endless chunked feed is abandoned just past the limit: clear size error, the connection is closed, nothing written", async () => {
    const srv = await feedServer(null);
    try {
      const feed = httpProvider(`${srv.base}/endless`, undefined, 20_000, LIMIT);
      await expect(feed.fetchFeed()).rejects.toThrow(`Feed is larger than ${LIMIT} bytes`);
      await expect.poll(() => srv.seen.closedEarly, { timeout: 5_000 }).toBe(true);
      expect(srv.seen.finished).toBe(false);
      // The client stopped reading right after the limit: what the server got out is the limit plus socket buffers.
      expect(srv.seen.sent).toBeGreaterThan(LIMIT);
      expect(srv.seen.sent).toBeLessThan(16 * LIMIT);

      const before = await snapshot();
      const run = await runSync(db, { scope: "all", trigger: "cron", provider: feed });
      expect(run).toMatchObject({ status: "failed", error: expect.stringMatching(/Feed is larger than 1048576 bytes/) });
      expect(diff(before, await snapshot())).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it("a chunked feed under the limit is read whole", async () => {
    const srv = await feedServer(baseFeed());
    try {
      expect(await httpProvider(`${srv.base}/small`, undefined, 5_000, LIMIT).fetchFeed()).toEqual(baseFeed());
    } finally {
      await srv.close();
    }
  });
});
