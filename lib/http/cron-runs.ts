import { log } from "../kernel/log";

// The cron routes' run record (table cron_job_runs, one row per route; the console dashboard shows it): written by the
// pipeline after every call that passed the cron secret, whatever the handler answered. Also counts the day's runs and
// failures in console_daily_metrics (cron.runs, cron.failures). A failure is any answer of 400 or more. Recording
// never fails the call: an error here is logged and dropped.

export async function recordCronRun(job: string, started: Date, durationMs: number, status: number, error: string | undefined): Promise<void> {
  const failed = status >= 400;
  try {
    // Loaded here, not at the top: the pipeline's module opens no pool for routes that never run a cron.
    const { direct } = await import("../db/client");
    await direct.$executeRaw`
      WITH run AS (
        INSERT INTO cron_job_runs AS r (job, runs, failures, last_status, last_started_at, last_finished_at, last_duration_ms, last_failed_at, last_error)
        VALUES (${job}, 1, ${failed ? 1 : 0}, ${status}, ${started}, now(), ${Math.round(durationMs)}, ${failed ? started : null}::timestamptz, ${failed ? (error ?? null) : null})
        ON CONFLICT (job) DO UPDATE SET
          runs = r.runs + 1, failures = r.failures + EXCLUDED.failures, last_status = EXCLUDED.last_status,
          last_started_at = EXCLUDED.last_started_at, last_finished_at = EXCLUDED.last_finished_at, last_duration_ms = EXCLUDED.last_duration_ms,
          last_failed_at = coalesce(EXCLUDED.last_failed_at, r.last_failed_at), last_error = CASE WHEN EXCLUDED.failures > 0 THEN EXCLUDED.last_error ELSE r.last_error END
        RETURNING 1
      )
      INSERT INTO console_daily_metrics AS m (metric, day, value)
      SELECT v.metric, (now() AT TIME ZONE 'UTC')::date, v.value FROM run, (VALUES ('cron.failures', ${failed ? 1 : 0}::int8), ('cron.runs', 1::int8)) AS v(metric, value)
      ORDER BY 1
      ON CONFLICT (metric, day) DO UPDATE SET value = m.value + EXCLUDED.value, computed_at = now()`;
  } catch (caught) {
    log("warn", { msg: "cron run not recorded", job, error: caught instanceof Error ? caught.message : String(caught) });
  }
}
