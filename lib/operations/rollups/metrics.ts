// The console dashboard's metrics: what each name in console_daily_metrics means. `daily` metrics are counts or sums
// of one UTC day recomputed from their raw table; `snapshot` metrics are read at the rollup's run (today's row only);
// `counter` metrics are added to by the cron pipeline as jobs run (lib/http/cron-runs.ts), never recomputed.

export type MetricKind = "daily" | "snapshot" | "counter";

export const METRICS = {
  "fans.active": { kind: "daily", label: "Active fans", unit: "fans" },
  "fans.signups": { kind: "daily", label: "New sign-ups", unit: "fans" },
  "rep.issued": { kind: "daily", label: "Rep issued", unit: "Rep" },
  "rep.spent": { kind: "daily", label: "Rep spent", unit: "Rep" },
  checkins: { kind: "daily", label: "Check-ins", unit: "check-ins" },
  "quiz.starts": { kind: "daily", label: "Quiz starts", unit: "quizzes" },
  "quiz.completions": { kind: "daily", label: "Quiz completions", unit: "quizzes" },
  posts: { kind: "daily", label: "Posts", unit: "posts" },
  reports: { kind: "daily", label: "Reports", unit: "reports" },
  "market.sales": { kind: "daily", label: "Sales", unit: "sales" },
  "market.volume": { kind: "daily", label: "Volume", unit: "coins" },
  "market.fees": { kind: "daily", label: "Fees", unit: "coins" },
  "payments.topups": { kind: "daily", label: "Top-ups", unit: "top-ups" },
  "payments.topup_coins": { kind: "daily", label: "Coins topped up", unit: "coins" },
  "payments.refunds": { kind: "daily", label: "Refund claw-backs", unit: "claw-backs" },
  "payments.refund_coins": { kind: "daily", label: "Coins clawed back", unit: "coins" },
  "moderation.open_reports": { kind: "snapshot", label: "Open reports", unit: "reports" },
  "moderation.oldest_open_minutes": { kind: "snapshot", label: "Oldest open report (minutes)", unit: "minutes" },
  "push.pending": { kind: "snapshot", label: "Push pending", unit: "notifications" },
  "push.failed": { kind: "snapshot", label: "Push failed", unit: "notifications" },
  "cron.runs": { kind: "counter", label: "Cron runs", unit: "runs" },
  "cron.failures": { kind: "counter", label: "Cron failures", unit: "runs" },
} as const satisfies Record<string, { kind: MetricKind; label: string; unit: string }>;

export type MetricName = keyof typeof METRICS;

export const metricNames = (kind: MetricKind): MetricName[] => (Object.keys(METRICS) as MetricName[]).filter((m) => METRICS[m].kind === kind);
