import { raw, rawTransaction } from "../../db/raw";
import type { Db } from "../../db/client";
import { ROLLUP_CATCH_UP_DAYS } from "./schemas";
import { lastFinalDay, takeRollupsLock, upsertDailyMetrics, upsertSnapshotMetrics } from "./writes";

// The console-rollups cron: each daily metric of a range of UTC days recomputed from its raw table and upserted, so a
// run can be repeated and a late write (a reversal, a post published later today) is counted by the next run. Every
// query is bounded by its table's time index (EXPLAIN in docs/domains/console.md). Work is cut into chunks of
// CHUNK_DAYS, one transaction each, so a 400-day backfill never holds one long statement (15 s limit per statement).

const CHUNK_DAYS = 7;
const DAY_MS = 86_400_000;
// On a client other than the app's (a script's), the chunk runs in Prisma's interactive transaction: its limits.
const CHUNK_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

export const dayString = (d: Date) => d.toISOString().slice(0, 10);
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
const addDays = (day: string, n: number) => dayString(new Date(dayStart(day).getTime() + n * DAY_MS));

/**
 * Recompute the `days` UTC days ending today (1 = today); without `days`, catch up from the state (catchUpFrom).
 * Today's snapshot metrics are read now.
 */
export async function runRollups(db: Db, { days, now = new Date() }: { days?: number; now?: Date }) {
  const today = dayString(now);
  const from = days === undefined ? await catchUpFrom(db, today) : addDays(today, 1 - days);
  let rows = 0;
  for (let start = from; start <= today; start = addDays(start, CHUNK_DAYS)) {
    const last = addDays(start, CHUNK_DAYS - 1) < today ? addDays(start, CHUNK_DAYS - 1) : today;
    rows += await rawTransaction(
      db,
      async (tx) => {
        // Concurrent runs take turns per chunk (each would write the same values; this saves the second one's reads
        // from racing the first one's writes, and keeps the upserts from interleaving).
        await takeRollupsLock(tx);
        let n = await upsertDailyMetrics(tx, { first: start, last, from: dayStart(start), to: dayStart(addDays(last, 1)) }, now);
        if (last === today) n += await upsertSnapshotMetrics(tx, today, now);
        return n;
      },
      CHUNK_TRANSACTION,
    );
  }
  return { from, to: today, rows, computedAt: now.toISOString() };
}

/**
 * The first day a scheduled run recomputes: the day after the last one computed after it ended (Vercel Cron may skip
 * slots, and a day last computed before midnight misses its evening), never later than yesterday and never more than
 * ROLLUP_CATCH_UP_DAYS back.
 */
async function catchUpFrom(db: Db, today: string): Promise<string> {
  const last = await lastFinalDay(raw(db));
  const yesterday = addDays(today, -1);
  const floor = addDays(today, 1 - ROLLUP_CATCH_UP_DAYS);
  if (!last) return yesterday;
  const next = addDays(last, 1);
  return next > yesterday ? yesterday : next < floor ? floor : next;
}
