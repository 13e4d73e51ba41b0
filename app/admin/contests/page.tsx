import { db } from "@/lib/db/client";
import { listContests } from "@/lib/features/contests/service";
import { requireStaff } from "../_lib/gate";
import { Check, Field, first, Notice, styles, TableHead, when, type SearchParams, ScrollTable } from "../_lib/ui";
import { createContestAction, runSettlementsAction } from "./actions";
import { CONTESTS_DONE, CONTESTS_ERRORS } from "./shared";

// Contests with owned cards (lib/features/contests): the latest, and creating one over scheduled games (confirmed, audited).
// Settlement runs in the contests-settle cron every minute once every covered game is over.

export default async function ContestsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireStaff("/admin/contests", "economy");
  const sp = await searchParams;
  const done = first(sp.done);
  const error = first(sp.error);
  const contests = await listContests(db, { limit: 50 });

  return (
    <>
      <h1>Contests</h1>
      {done && CONTESTS_DONE[done] ? <Notice>{CONTESTS_DONE[done]}</Notice> : null}
      {error ? <Notice kind="error">{`${CONTESTS_ERRORS[error] ?? "That request was not valid."} Nothing changed.`}</Notice> : null}
      <p style={styles.muted}>
        Lineups lock at the first covered kick-off (or the set lock); contests settle once every covered game is final, postponed or canceled. Times are UTC.
      </p>
      <form action={runSettlementsAction}>
        <button type="submit" style={styles.secondary}>
          Run due settlements now
        </button>
      </form>
      {contests.contests.length === 0 ? (
        <p>No contest yet.</p>
      ) : (
        <ScrollTable label="Contests">
          <TableHead columns={["Contest", "Games", "Slots", "Rarity cap", "Prizes (Rep)", "Lock", "Lineups", "Status"]} />
          <tbody>
            {contests.contests.map((c) => (
              <tr key={c.id} data-contest={c.id}>
                <th scope="row" style={styles.rowHead}>
                  {c.title}
                </th>
                <td style={styles.td}>{c.games.map((g) => g.id).join(", ")}</td>
                <td style={styles.td} data-testid="slots">
                  {c.slots.join(" · ")}
                </td>
                <td style={styles.td}>
                  {Object.entries(c.rarityCap)
                    .map(([r, n]) => `${r} ≤ ${n}`)
                    .join(", ") || "—"}
                </td>
                <td style={styles.td} data-testid="prizes">
                  {c.prizes.join(" / ")}
                </td>
                <td style={styles.td}>{when(c.lockAt)}</td>
                <td style={styles.td}>{c.lineupCount}</td>
                <td style={styles.td} data-testid="status">
                  {c.status}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <h2>Create a contest</h2>
      <form action={createContestAction} style={styles.form} aria-label="Create a contest">
        <Field label="Title" name="title" required maxLength={120} />
        <Field label="Games (ids, comma-separated)" name="gameIds" required width={240} />
        <Field label="Slots (QB, RB/WR, *)" name="slots" required width={200} />
        <Field label="Rarity cap (legendary=1)" name="rarityCap" />
        <Field label="Captain ×" name="captainMultiplier" inputMode="numeric" defaultValue="2" />
        <Field label="Prizes by rank (Rep: 100, 50, 20)" name="prizes" required />
        <Field label="Lock (UTC; default the first kick-off)" name="lockAt" type="datetime-local" />
        <Check name="confirm" value="yes" label="I checked the games, slots and prizes: lineups cannot be changed by staff later" />
        <button type="submit" style={styles.button}>
          Create contest
        </button>
      </form>
    </>
  );
}
