import type { RawDb } from "../../db/raw";
import { metricNames } from "./metrics";

// The console-rollups cron's statements (service.ts runs them a chunk of days per transaction).

/** Serialises concurrent runs for the rest of the transaction (a transaction-scoped advisory lock). */
export async function takeRollupsLock(tx: RawDb): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('console-rollups'))`;
}

/**
 * The last UTC day (YYYY-MM-DD) whose daily metrics were computed after the day ended, so final; null before any.
 * Every daily metric is written by the same statement: the first one stands for all.
 */
export async function lastFinalDay(db: RawDb): Promise<string | null> {
  const [row] = await db.$queryRaw<{ day: string | null }[]>`
    SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM console_daily_metrics
    WHERE metric = ${metricNames("daily")[0]} AND computed_at >= (day + 1)::timestamp AT TIME ZONE 'UTC'`;
  return row?.day ?? null;
}

/**
 * Every daily metric of the days first..last (UTC), zero where nothing happened. `from` and `to` bound them in time:
 * the start of `first` and of the day after `last`.
 */
export function upsertDailyMetrics(tx: RawDb, days: { first: string; last: string; from: Date; to: Date }, now: Date): Promise<number> {
  const { first, last, from: t0, to: t1 } = days;
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
export function upsertSnapshotMetrics(tx: RawDb, today: string, now: Date): Promise<number> {
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
