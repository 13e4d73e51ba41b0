import { db } from "@/lib/db/client";
import { getSyncRun, listSyncRuns } from "@/lib/features/sync/queries";
import { startSync } from "../actions";
import { requireStaff } from "../_lib/gate";
import { RunDetail, RunStatus } from "../_lib/run";
import { first, Notice, styles, when, type SearchParams, TableHead, ScrollTable } from "../_lib/ui";

const ERRORS: Record<string, string> = { scope: "Unknown sync scope.", start: "The sync could not be started; see the server log." };

export default async function SyncPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/sync", "admin");
  const sp = await searchParams;
  const runId = first(sp.run);
  const error = first(sp.error);
  const [current, { runs }] = await Promise.all([runId ? getSyncRun(db, runId) : null, listSyncRuns(db, { limit: 20 })]);
  return (
    <>
      <h1>Sync</h1>
      <p>Pull leagues, conferences, divisions, teams and rosters from the provider feed. Runs never overlap: a second run waits for the first.</p>
      {error ? <Notice kind="error">{ERRORS[error] ?? "Something went wrong."}</Notice> : null}
      <div style={{ display: "flex", gap: 12, margin: "12px 0 20px" }}>
        <form action={startSync}>
          <input type="hidden" name="scope" value="leagues" />
          <button type="submit" style={styles.button}>
            Sync leagues
          </button>
        </form>
        <form action={startSync}>
          <input type="hidden" name="scope" value="teams" />
          <button type="submit" style={styles.button}>
            Sync teams
          </button>
        </form>
      </div>
      {current ? <RunDetail run={current} /> : null}
      <h2>History</h2>
      {runs.length === 0 ? (
        <p>No runs yet.</p>
      ) : (
        <ScrollTable label="Sync history" data-testid="sync-history">
          <TableHead columns={["Started", "Scope", "Trigger", "By", "Status", "Changes"]} />
          <tbody>
            {runs.map((r) => {
              const s = r.summary;
              const totals = s
                ? (["leagues", "conferences", "divisions", "teams", "players", "games"] as const).reduce(
                    (acc, e) => ({
                      created: acc.created + (s[e]?.created ?? 0),
                      updated: acc.updated + (s[e]?.updated ?? 0),
                      archived: acc.archived + (s[e]?.archived ?? 0),
                    }),
                    { created: 0, updated: 0, archived: 0 },
                  )
                : null;
              return (
                <tr key={r.id} data-run={r.id}>
                  <td style={styles.td}>
                    <a href={`/admin/sync/${r.id}`}>{when(r.startedAt)}</a>
                  </td>
                  <td style={styles.td}>{r.scope}</td>
                  <td style={styles.td}>{r.trigger}</td>
                  <td style={styles.td}>{r.actor ?? "—"}</td>
                  <td style={styles.td}>
                    <RunStatus status={r.status} />
                  </td>
                  <td style={styles.td}>
                    {totals ? `${totals.created} created, ${totals.updated} updated, ${totals.archived} archived` : r.error ? "failed" : "—"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}
