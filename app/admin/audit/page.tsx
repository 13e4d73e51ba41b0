import { auditFilterOf, auditSearchSchema, searchAudit, type AuditRow } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { requireStaff } from "../_lib/gate";
import { Field, first, Notice, ScrollTable, styles, TableHead, when, type SearchParams } from "../_lib/ui";

// The audit log, searchable: who changed what, when, with which role, before and after. Admins only (it shows every
// area's changes; a fan's page shows the entries about that fan). Newest first, keyset pages.

const PAGE_SIZE = 50;
const FIELDS = ["actor", "action", "targetType", "targetId", "from", "to"] as const;

/** The keys whose values differ between before and after, each as `key: before → after` (compact JSON). */
function diff(before: unknown, after: unknown): string[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const show = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));
  return keys.filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k])).map((k) => `${k}: ${show(b[k])} → ${show(a[k])}`);
}

export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/audit", "admin");
  const sp = await searchParams;
  const raw = Object.fromEntries([...FIELDS, "cursor"].map((k) => [k, first(sp[k]) || undefined]));
  const parsed = auditSearchSchema.safeParse(raw);
  let entries: AuditRow[] = [];
  let nextCursor: string | undefined;
  let error: string | null = parsed.success ? null : `Not a valid ${String(parsed.error.issues[0]?.path[0] ?? "filter")}: the search was not run.`;
  if (parsed.success) {
    try {
      ({ entries, nextCursor } = await searchAudit(db, auditFilterOf(parsed.data), parsed.data.cursor, PAGE_SIZE));
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      error = "That page link is no longer valid; start again from the first page.";
    }
  }
  const values = parsed.success ? parsed.data : {};
  const next = new URLSearchParams(Object.entries({ ...values, cursor: nextCursor }).filter((e): e is [string, string] => typeof e[1] === "string"));

  return (
    <>
      <h1>Audit log</h1>
      <p style={styles.muted}>Every staff change, written in the transaction of the change. Newest first. Dates are UTC days; the action matches by prefix.</p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="get" role="search" aria-label="Search the audit log" style={styles.form}>
        <Field label="Actor (identity-provider id)" name="actor" defaultValue={values.actor} />
        <Field label="Action starts with" name="action" defaultValue={values.action} placeholder="wallet." />
        <Field label="Target type" name="targetType" defaultValue={values.targetType} placeholder="user" width={120} />
        <Field label="Target id" name="targetId" defaultValue={values.targetId} />
        <Field label="From" name="from" type="date" defaultValue={values.from} />
        <Field label="To" name="to" type="date" defaultValue={values.to} />
        <button type="submit" style={styles.button}>
          Search
        </button>
      </form>
      {entries.length === 0 && !error ? <p>No entry matches.</p> : null}
      {entries.length ? (
        <ScrollTable label="Audit entries">
          <TableHead columns={["When", "Who", "Role", "Action", "Target", "Change", "Note", "Request id"]} />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-entry={e.id}>
                <th scope="row" style={styles.rowHead}>
                  {when(e.createdAt)}
                </th>
                <td style={styles.td}>
                  <code>{e.actorId}</code>
                </td>
                <td style={styles.td} data-testid="entry-role">
                  {e.actorRole}
                </td>
                <td style={styles.td} data-testid="entry-action">
                  <code>{e.action}</code>
                </td>
                <td style={styles.td}>
                  {e.targetType} <code>{e.targetId}</code>
                </td>
                <td style={{ ...styles.td, fontSize: 12 }}>
                  <ul style={{ margin: 0, paddingLeft: 16 }}>
                    {diff(e.before, e.after).map((line) => (
                      <li key={line}>
                        <code>{line}</code>
                      </li>
                    ))}
                  </ul>
                </td>
                <td style={styles.td}>{e.note ?? "—"}</td>
                <td style={styles.td}>{e.requestId ? <code>{e.requestId}</code> : "console"}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
      {nextCursor ? (
        <p>
          <a href={`/admin/audit?${next}`}>Older entries</a>
        </p>
      ) : null}
    </>
  );
}
