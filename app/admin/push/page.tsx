import { db } from "@/lib/db/client";
import { latestDeliveries, latestOutbox, outboxCounts } from "@/lib/core/push/queries";
import { OUTBOX_STATUSES, type OutboxStatus } from "@/lib/core/push/schemas";
import { requireStaff } from "../_lib/gate";
import { first, Stat, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";

// The push outbox (lib/core/push): how many rows are in each state, the latest rows (of one state with ?status=), and the
// development stand-in's latest deliveries (what `npm run dev` without provider keys "pushed").

const LATEST = 50;

export default async function PushPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/push", "admin");
  const sp = await searchParams;
  const wanted = first(sp.status);
  const status = OUTBOX_STATUSES.includes(wanted as OutboxStatus) ? (wanted as OutboxStatus) : undefined;
  const [counts, rows, standIn] = await Promise.all([outboxCounts(db), latestOutbox(db, status, LATEST), latestDeliveries(db, "standin", 20)]);
  const count = new Map(counts.map((c) => [c.status, c.n]));
  return (
    <>
      <h1>Push outbox</h1>
      <p>
        Every notification of a user with a device is offered here, once per user and cause. The delivery cron (every minute) and the attempt after each
        producing request send due rows; quiet hours hold them back, blocks and push preferences drop them, failures retry with backoff.
      </p>
      <dl style={{ display: "flex", gap: 16, flexWrap: "wrap", margin: "12px 0" }}>
        {OUTBOX_STATUSES.map((s) => (
          <Stat key={s} label={s} value={<a href={`/admin/push?status=${s}`}>{count.get(s) ?? 0}</a>} testId={`push-count-${s}`} />
        ))}
      </dl>
      <h2>
        Latest rows{status ? ` (${status})` : ""} {status ? <a href="/admin/push">all</a> : null}
      </h2>
      {rows.length === 0 ? (
        <p>Nothing yet.</p>
      ) : (
        <ScrollTable label="Push outbox" data-testid="push-outbox">
          <TableHead columns={["Created", "User", "Type", "Cause", "Status", "Attempts", "Next attempt / sent", "Why"]} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-outbox={r.id} data-status={r.status}>
                <td style={styles.td}>{when(r.createdAt)}</td>
                <td style={styles.td}>{r.handle ? `@${r.handle}` : r.userId}</td>
                <td style={styles.td}>{r.type}</td>
                <td style={styles.td}>
                  <code>{r.causeKey}</code>
                </td>
                <td style={styles.td}>{r.status}</td>
                <td style={styles.td}>{r.attempts}</td>
                <td style={styles.td}>{r.status === "sent" ? when(r.sentAt) : r.status === "pending" ? when(r.nextAttemptAt) : "—"}</td>
                <td style={styles.td}>{r.dropReason ?? r.lastError ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <h2>Development stand-in</h2>
      <p>Deliveries to providers that are not configured, outside production (PUSH_DEV_STANDIN): what a phone or browser would have shown.</p>
      {standIn.length === 0 ? (
        <p>No stand-in deliveries.</p>
      ) : (
        <ScrollTable label="Stand-in deliveries" data-testid="push-standin">
          <TableHead columns={["When", "User", "Device kind", "Title", "Body"]} />
          <tbody>
            {standIn.map((d) => (
              <tr key={d.id}>
                <td style={styles.td}>{when(d.createdAt)}</td>
                <td style={styles.td}>{d.handle ? `@${d.handle}` : "—"}</td>
                <td style={styles.td}>{d.detail}</td>
                <td style={styles.td}>{d.title}</td>
                <td style={styles.td}>{d.body}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}
