import type { RawDb } from "../../db/raw";
import { int8, raw, type Int8 } from "../../db/raw";
import type { Db } from "../../db/client";
import { METRICS, type MetricName } from "./metrics";
import { dayString } from "./service";

export type DayRow = { day: string } & Partial<Record<MetricName, number>>;

/** The dashboard's series: one row per UTC day of the last `days` (today included), each metric's value where known. */
export async function dailySeries(db: Db | RawDb, days: number, now = new Date()): Promise<DayRow[]> {
  const from = dayString(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await raw(db as Db).$queryRaw<Int8<{ metric: MetricName; day: string; value: bigint }, "value">[]>`
    SELECT metric, to_char(day, 'YYYY-MM-DD') AS day, value FROM console_daily_metrics
    WHERE metric = ANY(${Object.keys(METRICS)}::text[]) AND day >= ${from}::date AND day <= ${dayString(now)}::date`;
  const byDay = new Map<string, DayRow>();
  for (let i = 0; i < days; i++) {
    const day = dayString(new Date(now.getTime() - (days - 1 - i) * 86_400_000));
    byDay.set(day, { day });
  }
  for (const row of rows.map((r) => int8(r, ["value"]))) {
    const entry = byDay.get(row.day);
    if (entry) entry[row.metric] = row.value;
  }
  return [...byDay.values()];
}

export interface CronJobRow {
  job: string;
  runs: number;
  failures: number;
  lastStatus: number;
  lastStarted: Date;
  lastDurationMs: number;
  lastFailedAt: Date | null;
  lastError: string | null;
}

/** Each cron route's last run and failures (one row per route, written by the pipeline). */
export function cronJobs(db: Db | RawDb): Promise<CronJobRow[]> {
  return raw(db as Db).$queryRaw<CronJobRow[]>`
    SELECT job, runs, failures, last_status AS "lastStatus", last_started_at AS "lastStarted", last_duration_ms AS "lastDurationMs",
           last_failed_at AS "lastFailedAt", last_error AS "lastError"
    FROM cron_job_runs ORDER BY job`;
}
