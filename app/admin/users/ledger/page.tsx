import { CONSOLE_LEDGER_LIMIT, consoleLedger } from "@/lib/operations/admin/queries";
import { userIdSchema } from "@/lib/operations/admin/schemas";
import { db } from "@/lib/db/client";
import { ReverseCell } from "./reverse";
import { requireStaff } from "../../_lib/gate";
import { first, Notice, ScrollTable, styles, when, type SearchParams, TableHead } from "../../_lib/ui";

// A user's Rep ledger, newest first. A credit can be reversed once, by a new negative entry with a staff-entered
// reason; entries are never edited or deleted.

const ERRORS: Record<string, string> = {
  confirm: "Tick Confirm to reverse an entry.",
  reason: "Enter a reason for the reversal (3-200 characters).",
  entryId: "No such ledger entry.",
  missing: "No such ledger entry for this user.",
  not_credit: "Only credits can be reversed (not debits or reversals).",
  already: "That entry was already reversed.",
  balance: "The user's balance is lower than that credit (they spent it), so it cannot be reversed.",
};

export default async function LedgerPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/users", "support");
  const sp = await searchParams;
  const userId = userIdSchema.safeParse(first(sp.user) ?? "");
  const ledger = userId.success ? await consoleLedger(db, userId.data) : null;
  if (!ledger) {
    return (
      <>
        <h1>Rep ledger</h1>
        <Notice kind="error">No such user.</Notice>
        <p>
          <a href="/admin/users">Back to users</a>
        </p>
      </>
    );
  }
  const { user, entries, total } = ledger;
  const done = first(sp.done);
  const error = first(sp.error);

  return (
    <>
      <p>
        <a href={`/admin/users?${new URLSearchParams({ q: user.externalId })}`}>← Users</a>
      </p>
      <h1>Rep ledger: {user.handle ? `@${user.handle}` : user.externalId}</h1>
      {done === "reversed" ? <Notice>Entry reversed: a compensating entry was added.</Notice> : null}
      {error ? <Notice kind="error">{`${ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <p>
        <code>{user.externalId}</code> · balance <strong data-testid="balance">{user.repBalance}</strong> Rep ·{" "}
        {total > CONSOLE_LEDGER_LIMIT ? `newest ${CONSOLE_LEDGER_LIMIT} of ${total} entries` : `${total} entr${total === 1 ? "y" : "ies"}`}
      </p>
      {entries.length ? (
        <ScrollTable label="Ledger">
          <TableHead columns={["When", "Amount", "Kind", "Source", "Reason", "Action"]} />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-entry={e.id}>
                <th scope="row" style={styles.rowHead}>
                  {when(e.createdAt)}
                </th>
                <td style={{ ...styles.td, color: e.amount < 0 ? "#a33" : undefined }} data-testid="amount">
                  {e.amount > 0 ? `+${e.amount}` : e.amount}
                </td>
                <td style={styles.td}>
                  <code>{e.earnKind}</code>
                </td>
                <td style={styles.td}>{e.source}</td>
                <td style={styles.td}>{e.reason}</td>
                <td style={styles.td}>
                  <ReverseCell userId={user.id} entry={e} reversedAt={e.reversedBy?.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : (
        <p>No entries.</p>
      )}
      <p style={{ ...styles.muted, fontSize: 13, marginTop: 16 }}>
        Reversing a credit adds a negative entry for the same amount (kind <code>reversal</code>) with your reason, shown to the fan in their ledger; the credit
        itself stays. A credit is reversed at most once, and only while the balance covers it.
      </p>
    </>
  );
}
