import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { createDb } from "../../lib/db/client";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import { seed } from "../../dev/seed/seed";
import type { FeedInput } from "../../lib/features/sync/payload";
import type { FeedProvider } from "../../lib/features/sync/provider";
import { SYNC_ENTITIES, type SyncSummary } from "../../lib/features/sync/service";

// What the sync engine's tests share (sync.test.ts, sync-feeds.test.ts): a scratch database of the file's own (this
// module is loaded once per test file, under a random name), snapshots of its sports tables, a small valid feed under
// a provider name of a test's own, and the run summary's counts.

const ADMIN = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const url = new URL(ADMIN);
url.pathname = `/fan_sync_${Math.random().toString(36).slice(2, 10)}`;
export const db = createDb(url.toString(), 6);

const TABLES = ["leagues", "conferences", "divisions", "teams", "players", "games"] as const;
export type Snapshot = Map<string, string>; // "<table>:<id>" → row JSON

export async function snapshot(): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const t of TABLES) {
    for (const row of await db.$queryRawUnsafe<{ id: string }[]>(`SELECT * FROM ${t} ORDER BY id`)) out.set(`${t}:${row.id}`, JSON.stringify(row));
  }
  return out;
}

let seeded: Snapshot;

/** Creates, migrates and seeds the file's database before its tests; after them, checks the seeded rows and drops it. */
export function scratchDatabase() {
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
}

/** A small, valid feed: one league (2 conferences, 1 division each + 1 league-level division), 3 teams, 5 players, 2 games. */
export function baseFeed(): FeedInput & Required<Pick<FeedInput, "teams" | "games">> {
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
export function provider(name: string, feed: () => unknown): FeedProvider {
  return { name: `feed:${name}`, fetchFeed: async () => uniqueSlugs(structuredClone(feed()), name) as FeedInput };
}

/** Slugs are unique across the table: suffix league slugs and derived team slugs with the test's name. */
export function uniqueSlugs(feed: unknown, name: string): unknown {
  const f = feed as { leagues?: { slug?: string }[]; teams?: { slug?: string; name?: string }[] };
  if (!f || typeof f !== "object" || !Array.isArray(f.leagues)) return feed;
  for (const l of f.leagues) if (typeof l.slug === "string") l.slug = `${l.slug}-${name}`;
  for (const t of f.teams ?? []) if (t.slug === undefined && typeof t.name === "string") t.slug = `${t.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${name}`;
  return f;
}

export const counts = (s: SyncSummary | null) =>
  Object.fromEntries(SYNC_ENTITIES.map((e) => [e, s![e]])) as Record<
    (typeof SYNC_ENTITIES)[number],
    { created: number; updated: number; archived: number; unchanged: number }
  >;

export function expectAllUnchanged(s: SyncSummary | null) {
  for (const e of SYNC_ENTITIES) expect({ e, ...s![e], unchanged: 0 }).toEqual({ e, created: 0, updated: 0, archived: 0, unchanged: 0 });
  expect(s!.changes).toEqual([]);
}

/** Rows that differ between two snapshots (added, removed or changed), as "<table>:<id>". */
export function diff(a: Snapshot, b: Snapshot): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}
