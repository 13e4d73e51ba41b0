import { listDeletionQueue } from "@/lib/core/accounts/service";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/kernel/errors";
import { requireStaff } from "../_lib/gate";
import { first, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";

// The deletion queue (lib/core/accounts): accounts scheduled for deletion, the next the erasure cron may take first, with
// why an erasure is waiting (an auction with bids, a mint under way) or failed. Read-only: fans cancel their own.

const PAGE = 50;

export default async function DeletionsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/deletions", "support");
  const cursor = first((await searchParams).cursor);
  let page: Awaited<ReturnType<typeof listDeletionQueue>>;
  try {
    page = await listDeletionQueue(db, { cursor, limit: PAGE });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    page = await listDeletionQueue(db, { limit: PAGE }); // a stale or edited cursor: back to the first page
  }
  return (
    <>
      <h1>Deletion queue</h1>
      <p style={styles.muted}>
        Accounts whose owners asked to delete them. The erasure cron (<code>/api/cron/account-erasure</code>, hourly) erases each once its time has come; one
        with an auction that has bids, or a mint under way, waits and is retried.
      </p>
      {page.deletions.length === 0 ? (
        <p>No account is scheduled for deletion.</p>
      ) : (
        <ScrollTable label="Scheduled deletions">
          <TableHead columns={["Account", "Requested", "Due", "Next attempt", "Attempts", "Waiting because"]} />
          <tbody>
            {page.deletions.map((d) => (
              <tr key={d.userId} data-user={d.userId}>
                <th scope="row" style={styles.rowHead}>
                  {d.handle ? `@${d.handle}` : <span style={styles.muted}>no handle</span>}
                  <br />
                  <code style={{ fontSize: 12 }}>{d.userId}</code>
                </th>
                <td style={styles.td}>{when(d.requestedAt)}</td>
                <td style={styles.td}>{when(d.dueAt)}</td>
                <td style={styles.td}>{when(d.notBefore)}</td>
                <td style={styles.td}>{d.attempts}</td>
                <td style={styles.td} data-testid="last-error">
                  {d.lastError ?? "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {page.nextCursor ? (
        <p>
          <a href={`/admin/deletions?cursor=${encodeURIComponent(page.nextCursor)}`}>Next page</a>
        </p>
      ) : null}
    </>
  );
}
