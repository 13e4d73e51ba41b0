import { SYNC_ENTITIES, type SyncRunView } from "@/lib/features/sync/service";
import { styles, when, TableHead, ScrollTable } from "./ui";

/** The counts a sync run reports per entity, in table order. */
const COUNTS = ["created", "updated", "archived", "unchanged"] as const;

const STATUS_COLOR = { running: "#8a6d00", succeeded: "#2e6b36", failed: "#a33" } as const;

export function RunStatus({ status }: { status: SyncRunView["status"] }) {
  return <strong style={{ color: STATUS_COLOR[status] }}>{status}</strong>;
}

/** One sync run: who/when/status, the per-entity counts and the list of changes. */
export function RunDetail({ run, headingLevel = 2 }: { run: SyncRunView; headingLevel?: 1 | 2 }) {
  const H = headingLevel === 1 ? "h1" : "h2";
  const summary = run.summary;
  const changes = summary?.changes ?? [];
  return (
    <section aria-labelledby={`run-${run.id}`} data-testid="sync-run" data-status={run.status}>
      <H id={`run-${run.id}`}>
        {run.scope[0]!.toUpperCase() + run.scope.slice(1)} sync: <RunStatus status={run.status} />
      </H>
      <p style={styles.muted}>
        Run <code>{run.id}</code> · {run.trigger}
        {run.actor ? ` by ${run.actor}` : ""} · started {when(run.startedAt)}
        {run.finishedAt ? ` · finished ${when(run.finishedAt)}` : ""}
        {summary?.dryRun ? " · dry run (nothing written)" : ""}
      </p>
      {run.error ? (
        <p role="alert" style={{ color: "#a33" }}>
          Error: {run.error}
        </p>
      ) : null}
      {summary ? (
        <>
          <ScrollTable label="Summary" style={{ maxWidth: 640 }}>
            <TableHead columns={["Entity", "Created", "Updated", "Archived", "Unchanged"]} />
            <tbody>
              {SYNC_ENTITIES.map((e) => {
                const c = summary[e] ?? { created: 0, updated: 0, archived: 0, unchanged: 0 };
                return (
                  <tr key={e} data-entity={e}>
                    <th scope="row" style={styles.rowHead}>
                      {e}
                    </th>
                    {COUNTS.map((k) => (
                      <td key={k} style={styles.td} data-count={k}>
                        {c[k]}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </ScrollTable>
          <h3>
            Changes ({changes.length}
            {summary.changesTruncated ? "+, list truncated" : ""})
          </h3>
          {changes.length === 0 ? (
            <p>Nothing changed.</p>
          ) : (
            <ul aria-label="Changes" style={{ fontSize: 14, maxHeight: 420, overflowY: "auto", border: "1px solid #eee", padding: "8px 8px 8px 28px" }}>
              {changes.map((c, i) => (
                <li key={`${c.entity}:${c.id}:${i}`}>
                  {c.change} {c.entity.replace(/s$/, "")} <code>{c.id}</code>
                  {c.fields?.length ? ` (${c.fields.join(", ")})` : ""}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </section>
  );
}
