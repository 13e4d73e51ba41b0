// Reads: the ledger of a user with LEDGER_ENTRIES entries (its first page and the page DEEP_PAGE pages in), a team,
// the starred teams and the dashboard. prepareDatabase also makes the bench database every scenario uses (migrated,
// seeded).
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { createDb } from "../../lib/db/client";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import { seed } from "../../dev/seed/seed";
import { encodeCursor } from "../../lib/kernel/cursor";
import { DB_URL, PAGE, type Case, type Row } from "./common";

export const LEDGER_ENTRIES = 1_000_000;
export const DEEP_PAGE = 5_000;
const SUB = "user_bench_ledger";
export const DASHBOARD_SUB = "user_bench_dashboard";

export async function prepareDatabase(): Promise<{ userId: string; deepCursor: string }> {
  await ensureDatabase(DB_URL);
  await migrate(DB_URL);
  const db = createDb(DB_URL, 2);
  await seed(db);
  await db.user.createMany({ data: [{ externalId: SUB }], skipDuplicates: true });
  const { id: userId } = await db.user.findUniqueOrThrow({ where: { externalId: SUB } });
  await db.$disconnect();

  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM rep_entries WHERE user_id = $1", [userId]);
  if (Number(rows[0]!.n) < LEDGER_ENTRIES) {
    console.log(`bench: writing ${LEDGER_ENTRIES.toLocaleString()} ledger entries (once per database)…`);
    await client.query("DELETE FROM rep_entries WHERE user_id = $1", [userId]);
    // One entry a second going back in time, with every 10th pair sharing a timestamp to exercise the id tie-break.
    await client.query(
      `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
       SELECT gen_random_uuid(), $1, (ARRAY['fanAmp','club','playerAmp','serviceDirect']::"RepSource"[])[1 + i % 4],
              1 + i % 25, 'Bench entry ' || i, 'bench', 'bench:' || i,
              timestamptz '2026-11-01' - make_interval(secs => i - (i % 10 = 1)::int)
       FROM generate_series(1, $2::int) AS i`,
      [userId, LEDGER_ENTRIES],
    );
    await client.query("ANALYZE rep_entries");
  }
  for (const teamId of ["tm_hch", "tm_gfg", "tm_lsl", "tm_rvr", "tm_fpb", "prov_unsynced_1"]) {
    await client.query("INSERT INTO starred_teams (user_id, team_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [userId, teamId, teamId]);
  }
  const deep = await client.query<{ id: string; created_at: Date }>(
    `SELECT id::text AS id, created_at FROM rep_entries WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [userId, DEEP_PAGE * PAGE - 1],
  );
  await client.end();
  const row = deep.rows[0]!;
  return { userId, deepCursor: encodeCursor(row.created_at.getTime(), row.id) };
}

/** The read cases, in the runner's order. */
export function readCases(base: string, privateKey: string, deepCursor: string): Case[] {
  const auth = { authorization: `Bearer ${signSessionToken(privateKey, SUB, { ttlSeconds: 3600 })}` };
  const dashAuth = { authorization: `Bearer ${signSessionToken(privateKey, DASHBOARD_SUB, { ttlSeconds: 3600 })}` };
  return [
    { name: "GET /api/teams/{id}", target: 0.5, load: () => ({ url: `${base}/api/teams/tm_hch` }) },
    { name: "GET /api/me/starred-teams", target: 0.5, load: () => ({ url: `${base}/api/me/starred-teams`, headers: auth }) },
    { name: "GET ledger (first page)", target: 0.5, load: () => ({ url: `${base}/api/v1/engage/rep/ledger?limit=${PAGE}`, headers: auth }) },
    { name: `GET ledger (page ${DEEP_PAGE})`, load: () => ({ url: `${base}/api/v1/engage/rep/ledger?limit=${PAGE}&cursor=${deepCursor}`, headers: auth }) },
    { name: "GET /api/dashboard", target: 0.5, load: () => ({ url: `${base}/api/dashboard`, headers: dashAuth }) },
  ];
}

export function reportLedger(rows: (Row & { rounds?: Row[] })[]) {
  // The deep page runs once, right after the first page's first round: compared with that round, its neighbour.
  const firstLedger = rows.find((r) => r.name === "GET ledger (first page)");
  const firstRow = firstLedger?.rounds?.[0] ?? firstLedger;
  const deepRow = rows.find((r) => r.name === `GET ledger (page ${DEEP_PAGE})`);
  if (firstRow && deepRow) {
    const deepRatio = deepRow.p50 / Math.max(firstRow.p50, 0.001);
    console.log(
      `  ledger page ${DEEP_PAGE} p50 / first page p50: ${deepRatio.toFixed(2)} ${deepRatio <= 1.2 ? "(ok, target ≤ 1.20)" : "(ABOVE the 1.20 target)"}`,
    );
  }
}
