import { rawTransaction, type RawDb } from "../../db/raw";
import type { Db } from "../../db/client";
import { metricNames } from "./metrics";

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

/** Recompute the `days` UTC days ending today (1 = today); today's snapshot metrics are read now. */
export async function runRollups(db: Db, { days, now = new Date() }: { days: number; now?: Date }) {
  const today = dayString(now);
  const from = addDays(today, 1 - days);
  let rows = 0;
  for (let start = from; start <= today; start = addDays(start, CHUNK_DAYS)) {
    const last = addDays(start, CHUNK_DAYS - 1) < today ? addDays(start, CHUNK_DAYS - 1) : today;
    rows += await rawTransaction(
      db,
      async (tx) => {
        // Concurrent runs take turns per chunk (each would write the same values; this saves the second one's reads
        // from racing the first one's writes, and keeps the upserts from interleaving).
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('console-rollups'))`;
        let n = await upsertDaily(tx, start, last, now);
        if (last === today) n += await upsertSnapshot(tx, today, now);
        return n;
      },
      CHUNK_TRANSACTION,
    );
  }
  return { from, to: today, rows, computedAt: now.toISOString() };
}

/** Every daily metric of the days first..last (UTC), zero where nothing happened. */
function upsertDaily(tx: RawDb, first: string, last: string, now: Date): Promise<number> {
  const t0 = dayStart(first);
  const t1 = dayStart(addDays(last, 1));
  return tx.$executeRaw`
    WITH rep AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
             coalesce(sum(amount) FILTER (WHERE amount > 0), 0)::int8 AS issued,
             coalesce(-sum(amount) FILTER (WHERE amount < 0), 0)::int8 AS spent
      FROM rep_entries WHERE created_at >= ${t0} AND created_at < ${t1} GROUP BY 1
    ), active AS (
      SELECT day, count(DISTINCT user_id)::int8 AS fans FROM (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, user_id FROM rep_entries WHERE created_at >= ${t0} AND created_at < ${t1}
        UNION ALL
        SELECT (received_at AT TIME ZONE 'UTC')::date, user_id FROM feed_signal_batches WHERE received_at >= ${t0} AND received_at < ${t1}
      ) a GROUP BY day
    ), quiz AS (
      SELECT day, count(*)::int8 AS starts, count(*) FILTER (WHERE status = 'completed')::int8 AS completions
      FROM quiz_sessions WHERE day >= ${first}::date AND day <= ${last}::date GROUP BY day
    ), sales AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int8 AS n, sum(price)::int8 AS volume, sum(fee)::int8 AS fees
      FROM market_sales WHERE created_at >= ${t0} AND created_at < ${t1} GROUP BY 1
    ), coins AS (
      SELECT reason::text, (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int8 AS n, abs(sum(amount))::int8 AS coins
      FROM wallet_transactions WHERE reason IN ('topup', 'clawback') AND created_at >= ${t0} AND created_at < ${t1} GROUP BY 1, 2
    ), daily(metric, day, value) AS (
      SELECT 'fans.signups', (created_at AT TIME ZONE 'UTC')::date, count(*)::int8 FROM users WHERE created_at >= ${t0} AND created_at < ${t1} GROUP BY 2
      UNION ALL SELECT 'fans.active', day, fans FROM active
      UNION ALL SELECT 'rep.issued', day, issued FROM rep
      UNION ALL SELECT 'rep.spent', day, spent FROM rep
      UNION ALL SELECT 'checkins', day, count(*)::int8 FROM arena_check_ins WHERE day >= ${first}::date AND day <= ${last}::date GROUP BY day
      UNION ALL SELECT 'quiz.starts', day, starts FROM quiz
      UNION ALL SELECT 'quiz.completions', day, completions FROM quiz
      UNION ALL SELECT 'posts', (publish_at AT TIME ZONE 'UTC')::date, count(*)::int8 FROM posts
        WHERE publish_at >= ${t0} AND publish_at < ${t1} AND publish_at <= ${now} GROUP BY 2
      UNION ALL SELECT 'reports', (created_at AT TIME ZONE 'UTC')::date, count(*)::int8 FROM reports WHERE created_at >= ${t0} AND created_at < ${t1} GROUP BY 2
      UNION ALL SELECT 'market.sales', day, n FROM sales
      UNION ALL SELECT 'market.volume', day, volume FROM sales
      UNION ALL SELECT 'market.fees', day, fees FROM sales
      UNION ALL SELECT CASE reason WHEN 'topup' THEN 'payments.topups' ELSE 'payments.refunds' END, day, n FROM coins
      UNION ALL SELECT CASE reason WHEN 'topup' THEN 'payments.topup_coins' ELSE 'payments.refund_coins' END, day, coins FROM coins
    )
    INSERT INTO console_daily_metrics (metric, day, value, computed_at)
    SELECT m.metric, d.day::date, coalesce(x.value, 0), ${now}
    FROM unnest(${metricNames("daily")}::text[]) AS m(metric)
    CROSS JOIN generate_series(${first}::date, ${last}::date, interval '1 day') AS d(day)
    LEFT JOIN daily x ON x.metric = m.metric AND x.day = d.day::date
    ORDER BY 1, 2
    ON CONFLICT (metric, day) DO UPDATE SET value = EXCLUDED.value, computed_at = EXCLUDED.computed_at`;
}

/** The moderation queue and the push outbox as they are now, as today's values. */
function upsertSnapshot(tx: RawDb, today: string, now: Date): Promise<number> {
  return tx.$executeRaw`
    WITH q AS (
      SELECT count(*)::int8 AS open, coalesce(floor(extract(epoch FROM ${now}::timestamptz - min(created_at)) / 60), 0)::int8 AS oldest
      FROM reports WHERE resolved_at IS NULL
    ), p AS (
      SELECT (SELECT count(*) FROM push_outbox WHERE status = 'pending')::int8 AS pending,
             (SELECT count(*) FROM push_outbox WHERE status = 'failed')::int8 AS failed
    )
    INSERT INTO console_daily_metrics (metric, day, value, computed_at)
    SELECT v.metric, ${today}::date, v.value, ${now}
    FROM q, p, LATERAL (VALUES ('moderation.open_reports', q.open), ('moderation.oldest_open_minutes', q.oldest),
                                ('push.pending', p.pending), ('push.failed', p.failed)) AS v(metric, value)
    ORDER BY 1
    ON CONFLICT (metric, day) DO UPDATE SET value = EXCLUDED.value, computed_at = EXCLUDED.computed_at`;
}
