import { Confirm, styles, when } from "../../_lib/ui";
import { reverseEntryAction } from "./actions";

/**
 * A ledger entry's action cell, on the ledger page and a fan's page: a credit that was not reversed gets the
 * reversal form (a reason and the confirmation box) when the staff member's role may reverse, a reversed one says
 * when. `fromFan` returns to the fan's page.
 */
export function ReverseCell({
  userId,
  entry,
  reversedAt,
  fromFan = false,
  mayReverse = true,
}: {
  userId: string;
  entry: { id: string; amount: number; earnKind: string };
  reversedAt: Date | null | undefined;
  fromFan?: boolean;
  mayReverse?: boolean;
}) {
  if (entry.amount <= 0 || entry.earnKind === "reversal") return null;
  if (reversedAt) return <span data-testid="reversed">Reversed {when(reversedAt)}</span>;
  if (!mayReverse) return null;
  return (
    <form action={reverseEntryAction} style={{ display: "flex", gap: 6, flexWrap: "wrap", alignItems: "center" }}>
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="entryId" value={entry.id} />
      {fromFan ? <input type="hidden" name="from" value="fan" /> : null}
      <input
        name="reason"
        required
        minLength={3}
        maxLength={200}
        aria-label={`Reason to reverse ${entry.amount} Rep`}
        placeholder="Reason"
        style={styles.input}
      />
      <Confirm />
      <button type="submit" style={styles.secondary}>
        Reverse
      </button>
    </form>
  );
}
