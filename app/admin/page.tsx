import { dashboardCounts } from "@/lib/operations/admin/queries";
import { readMayLag } from "@/lib/db/replica";
import { replicaState } from "@/lib/operations/platform/service";
import { METRICS, type MetricName } from "@/lib/operations/rollups/metrics";
import { cronJobs, dailySeries, type DayRow } from "@/lib/operations/rollups/queries";
import { RANGES, rangeOf } from "@/lib/operations/rollups/schemas";
import { DashboardChart } from "./_dashboard/chart";
import { requireStaff } from "./_lib/gate";
import { first, ScrollTable, Stat, styles, TableHead, when, type SearchParams } from "./_lib/ui";

// The dashboard reads only the rollups (console_daily_metrics, cron_job_runs) and the few counts it always had; the
// console-rollups cron keeps them (docs/domains/console.md#dashboard).

interface ChartSpec {
  id: string;
  title: string;
  kind: "line" | "bar";
  /** Drawn in the chart and listed in the table. */
  series: MetricName[];
  /** Only in the table. */
  extra?: MetricName[];
}

const CHARTS: ChartSpec[] = [
  { id: "fans", title: "Fans", kind: "line", series: ["fans.active", "fans.signups"] },
  { id: "rep", title: "Rep issued and spent", kind: "line", series: ["rep.issued", "rep.spent"] },
  { id: "play", title: "Check-ins and quizzes", kind: "line", series: ["checkins", "quiz.starts", "quiz.completions"] },
  { id: "community", title: "Posts and reports", kind: "bar", series: ["posts", "reports"] },
  { id: "market", title: "Marketplace volume and fees (coins)", kind: "bar", series: ["market.volume", "market.fees"], extra: ["market.sales"] },
  {
    id: "payments",
    title: "Top-ups and refunds (coins)",
    kind: "bar",
    series: ["payments.topup_coins", "payments.refund_coins"],
    extra: ["payments.topups", "payments.refunds"],
  },
  { id: "moderation", title: "Moderation queue", kind: "line", series: ["moderation.open_reports"], extra: ["moderation.oldest_open_minutes"] },
  { id: "push", title: "Push outbox", kind: "line", series: ["push.pending", "push.failed"] },
  { id: "cron", title: "Cron runs and failures", kind: "bar", series: ["cron.runs", "cron.failures"] },
];

const fmt = (v: number | undefined) => (v === undefined ? "—" : v.toLocaleString("en-US"));

function summary(spec: ChartSpec, rows: DayRow[], days: number): string {
  const parts = spec.series.map((m) => {
    const values = rows.map((r) => r[m]).filter((v): v is number => v !== undefined);
    if (values.length === 0) return `${METRICS[m].label}: no data`;
    const total = METRICS[m].kind === "snapshot" ? "" : `, total ${fmt(values.reduce((a, b) => a + b, 0))}`;
    return `${METRICS[m].label}: latest ${fmt(values.at(-1))}, highest ${fmt(Math.max(...values))}${total}`;
  });
  return `${spec.title} ${spec.kind === "line" ? "line" : "bar"} chart over the last ${days} days. ${parts.join("; ")}.`;
}

export default async function Dashboard({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin", "staff");
  const days = rangeOf(first((await searchParams).range));
  // The dashboard tolerates a replica's lag (its figures are rollups every 10 minutes anyway).
  const [c, rows, jobs] = await readMayLag(null, (db) => Promise.all([dashboardCounts(db), dailySeries(db, days), cronJobs(db)]));
  const replicas = await replicaState();
  return (
    <>
      <h1>Dashboard</h1>
      <dl aria-label="Counts" style={{ display: "flex", gap: 16, flexWrap: "wrap", margin: "16px 0" }}>
        <Stat label="Users" value={c.users} testId="count-users" />
        <Stat label="Leagues" value={c.leagues} testId="count-leagues" />
        <Stat label="Live teams" value={c.liveTeams} testId="count-live-teams" />
        <Stat label="Archived teams" value={c.archivedTeams} testId="count-archived-teams" />
      </dl>
      <h2>Read replicas</h2>
      <p data-testid="replica-status">
        {replicas.status === "none"
          ? "No read replica is configured (DATABASE_REPLICA_URL): every read goes to the primary."
          : `${replicas.status === "ok" ? "Serving the reads that may lag" : "Reads that may lag go to the primary"} (status ${replicas.status}, ` +
            `lag ${replicas.lagMs === null ? "unknown" : `${fmt(replicas.lagMs)} ms`}). ` +
            replicas.replicas
              .map(
                (r, i) =>
                  `Replica ${i + 1}: ${r.status}, ${r.lagMs === null ? "lag unknown" : `${fmt(r.lagMs)} ms`}, ${r.lagBytes === null ? "—" : `${fmt(r.lagBytes)} bytes`} behind.`,
              )
              .join(" ")}
      </p>
      <h2>Last sync run</h2>
      {c.lastSync ? (
        <p data-testid="last-sync">
          <a href={`/admin/sync/${c.lastSync.id}`}>
            {c.lastSync.scope} sync, {c.lastSync.status}
          </a>{" "}
          — started {when(c.lastSync.startedAt)} by {c.lastSync.actor ?? c.lastSync.trigger}
          {c.lastSync.finishedAt ? `, finished ${when(c.lastSync.finishedAt)}` : ""}
        </p>
      ) : (
        <p data-testid="last-sync">
          No sync has run yet. <a href="/admin/sync">Run one</a>.
        </p>
      )}

      <h2>Activity</h2>
      <nav aria-label="Range" style={{ display: "flex", gap: 12, margin: "8px 0 16px" }}>
        {RANGES.map((r) => (
          <a key={r} href={`/admin?range=${r}`} aria-current={r === days ? "page" : undefined} style={r === days ? { fontWeight: 700 } : undefined}>
            Last {r} days
          </a>
        ))}
      </nav>
      <p style={styles.muted}>
        Daily figures (UTC days) from the rollups the console-rollups cron recomputes every 10 minutes; queue and outbox figures are as of each day&apos;s last
        run.
      </p>
      {CHARTS.map((spec) => {
        const columns = [...spec.series, ...(spec.extra ?? [])];
        const data = rows.map((r) => ({ day: r.day, ...Object.fromEntries(spec.series.map((m) => [m, r[m] ?? null])) }));
        return (
          <section key={spec.id} aria-labelledby={`chart-${spec.id}`} data-testid={`chart-${spec.id}`} style={{ margin: "24px 0" }}>
            <h3 id={`chart-${spec.id}`}>{spec.title}</h3>
            <div style={{ display: "flex", gap: 16, flexWrap: "wrap", alignItems: "flex-start" }}>
              <div style={{ flex: "2 1 420px", minWidth: 0 }}>
                <DashboardChart
                  kind={spec.kind}
                  rows={data}
                  series={spec.series.map((m) => ({ key: m, label: METRICS[m].label }))}
                  summary={summary(spec, rows, days)}
                />
              </div>
              <div tabIndex={0} role="region" aria-label={`${spec.title}: the numbers`} style={{ flex: "1 1 300px", maxHeight: 240, overflow: "auto" }}>
                <table style={styles.table}>
                  <caption style={{ textAlign: "left", fontSize: 13, ...styles.muted }}>
                    {spec.title}, last {days} days
                  </caption>
                  <TableHead columns={["Day", ...columns.map((m) => METRICS[m].label)]} />
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.day}>
                        <th scope="row" style={styles.rowHead}>
                          {r.day}
                        </th>
                        {columns.map((m) => (
                          <td key={m} style={{ ...styles.td, textAlign: "right" }}>
                            {fmt(r[m])}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          </section>
        );
      })}

      <h2>Cron jobs</h2>
      {jobs.length === 0 ? (
        <p data-testid="cron-jobs">No cron job has run yet.</p>
      ) : (
        <ScrollTable label="Cron jobs" data-testid="cron-jobs">
          <caption style={{ textAlign: "left", fontSize: 13, ...styles.muted }}>
            Each cron route&apos;s last run and its failures since it was first recorded
          </caption>
          <TableHead columns={["Job", "Last run", "Status", "Duration", "Runs", "Failures", "Last failure"]} />
          <tbody>
            {jobs.map((j) => (
              <tr key={j.job}>
                <th scope="row" style={styles.rowHead}>
                  {j.job}
                </th>
                <td style={styles.td}>{when(j.lastStarted)}</td>
                <td style={styles.td}>{j.lastStatus < 400 ? `ok (${j.lastStatus})` : `failed (${j.lastStatus})`}</td>
                <td style={styles.td}>{j.lastDurationMs} ms</td>
                <td style={styles.td}>{fmt(j.runs)}</td>
                <td style={styles.td}>{fmt(j.failures)}</td>
                <td style={styles.td}>{j.lastFailedAt ? `${when(j.lastFailedAt)}: ${j.lastError ?? ""}` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}
