// The leaderboard: a global board of BOARD_FANS fans (made once; its sorted sets rebuilt from the ledger when Redis
// lacks them), read as the fan at its top and as the one at its bottom, whose p50s the report compares.
import pg from "pg";
import { signSessionToken } from "../../lib/auth/sign";
import { createDb } from "../../lib/db/client";
import { boardKey, rebuildBoards } from "../../lib/core/rep/leaderboard/service";
import { boardStore } from "../../lib/core/rep/leaderboard/store";
import { DB_URL, medianPair, type Case, type Row } from "./common";

// The leaderboard board of BOARD_FANS fans (one ledger entry each, points BOARD_FANS down to 1), under its own prefix.
export const BOARD_FANS = 1_000_000;
export const BOARD_SUB = (i: number) => `user_bench_lb_${i}`;

/**
 * The 1,000,000-fan global board: fans user_bench_lb_1..N with one club entry each (N + 1 − i points, last season, so
 * the current season's boards stay small), made once; the rank index is rebuilt from the ledger when Redis lacks it.
 */
export async function prepareBoard(): Promise<void> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE external_id LIKE 'user_bench_lb_%'");
  if (Number(rows[0]!.n) < BOARD_FANS) {
    console.log(`seeding ${BOARD_FANS.toLocaleString()} leaderboard fans (once)…`);
    await client.query("DELETE FROM users WHERE external_id LIKE 'user_bench_lb_%'");
    await client.query(
      `INSERT INTO users (id, external_id, handle, handle_key, rep_balance, rep_earned_club, updated_at)
       SELECT gen_random_uuid(), 'user_bench_lb_' || i, 'benchfan' || i, 'benchfan' || i, $1 + 1 - i, $1 + 1 - i, now()
       FROM generate_series(1, $1::int) AS i`,
      [BOARD_FANS],
    );
    await client.query(
      `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
       SELECT gen_random_uuid(), id, 'club', rep_balance, 'Bench board', 'bench_board', 'bench_board', '2025-06-01T00:00:00Z'::timestamptz + (rep_balance || ' s')::interval
       FROM users WHERE external_id LIKE 'user_bench_lb_%'`,
    );
    // VACUUM also merges the trigram indexes' pending lists, which this bulk insert (outside the pool) filled.
    await client.query("VACUUM ANALYZE users");
    await client.query("ANALYZE rep_entries");
  }
  await client.end();
  const store = await boardStore();
  if ((await store.stats(boardKey("global", "all"), [])).size < BOARD_FANS) {
    console.log("rebuilding the leaderboards from the ledger…");
    const started = Date.now();
    const db = createDb(DB_URL, 2);
    const { boards } = await rebuildBoards(db);
    await db.$disconnect();
    console.log(
      `  ${boards.reduce((n, b) => n + b.entries, 0).toLocaleString()} entries on ${boards.length} boards in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
}

/** The leaderboard cases, in the runner's order. */
export function leaderboardCases(base: string, privateKey: string): Case[] {
  const boardAuth = (i: number) => ({ authorization: `Bearer ${signSessionToken(privateKey, BOARD_SUB(i), { ttlSeconds: 3600 })}` });
  return [
    { name: "GET leaderboard (me at the top)", target: 0.5, load: () => ({ url: `${base}/api/leaderboard?limit=20`, headers: boardAuth(1) }) },
    { name: "GET leaderboard (me at the bottom)", target: 0.5, load: () => ({ url: `${base}/api/leaderboard?limit=20`, headers: boardAuth(BOARD_FANS) }) },
  ];
}

export function reportLeaderboard(rows: (Row & { rounds?: Row[] })[]) {
  const p50Ratio = (top: Row, bottom: Row) => bottom.p50 / Math.max(top.p50, 0.001);
  const [topRow, bottomRow] = medianPair(rows, "GET leaderboard (me at the top)", "GET leaderboard (me at the bottom)", p50Ratio) ?? [];
  if (topRow && bottomRow) {
    const ratio = p50Ratio(topRow, bottomRow);
    console.log(
      `  leaderboard of ${BOARD_FANS.toLocaleString()}: p50 with me at the top ${topRow.p50} ms, at the bottom ${bottomRow.p50} ms (${ratio.toFixed(2)}; ${ratio <= 1.2 ? "ok, the bottom costs no more" : "ABOVE the top's by more than 20%"})`,
    );
  }
}
