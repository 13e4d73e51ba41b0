import { listLeaguesWithCounts } from "@/lib/operations/admin/queries";
import { db } from "@/lib/db/client";
import { requireStaff } from "../_lib/gate";
import { styles, TableHead, ScrollTable } from "../_lib/ui";

export default async function LeaguesPage() {
  await requireStaff("/admin/leagues", "admin");
  const leagues = await listLeaguesWithCounts(db);
  return (
    <>
      <h1>Leagues</h1>
      {leagues.length === 0 ? (
        <p>
          No leagues yet. <a href="/admin/sync">Sync leagues</a> from the provider.
        </p>
      ) : (
        <ScrollTable label="Leagues">
          <TableHead columns={["League", "Sport", "Season", "Source", "Live teams", "Archived teams"]} />
          <tbody>
            {leagues.map((l) => (
              <tr key={l.id} data-league={l.slug}>
                <th scope="row" style={styles.rowHead}>
                  <a href={`/admin/teams?league=${encodeURIComponent(l.id)}`}>{l.name}</a>
                  {l.archivedAt ? <span style={styles.muted}> (archived)</span> : null}
                </th>
                <td style={styles.td}>{l.sport || "—"}</td>
                <td style={styles.td}>{l.season ?? "—"}</td>
                <td style={styles.td}>{l.source}</td>
                <td style={styles.td}>{l.liveTeams}</td>
                <td style={styles.td}>{l.archivedTeams}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>
  );
}
