import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { award, debit } from "../../core/rep/service";
import { claimDueContest, dueContests, prizeMoves, repBalanceOf, settlementFingerprint, type ClaimedContest } from "./queries";
import { addPrizesPaid, markSettled, scoreAndRank, unlockLineupCards, voidCardsLeftTheirOwner } from "./writes";

// Settlement of contests (the contests-settle cron): once every covered game is over (final, postponed or canceled),
// each contest is settled in its own transaction under its row lock (FOR UPDATE SKIP LOCKED: two runs never settle
// one contest twice). The first settlement voids the slots of cards that left their lineup's owner, releases the
// cards' locks, scores and ranks every lineup in one statement, and pays Rep by rank with keyed grants. It records a
// fingerprint of what it settled on (the games' statuses and the covered player lines); a later run that finds a
// different fingerprint (an amendment from the live feed) settles again: scores and ranks are recomputed and each
// lineup's Rep is brought to its new prize by a compensating entry (a credit under a new grant key, or a debit).

export const CRON_BUDGET_MS = 20_000;
const SETTLE_TX_MS = 120_000;
/** Settled contests are watched for amended stats this long after their first settlement. */
export const RESETTLE_WINDOW_DAYS = 7;

/** Pays each lineup its prize by rank (none when no covered game was played): only the difference from what it got. */
async function pay(tx: DbTx, c: ClaimedContest, version: number, anyFinal: boolean) {
  const moves = await prizeMoves(tx, c, anyFinal);
  const paid: { id: string; amount: number }[] = [];
  for (const m of moves) {
    if (m.delta > 0) {
      const granted = await award(tx, m.userId, {
        earnKind: "contest_prize",
        amount: m.delta,
        source: "club",
        reason: version === 1 ? `Contest prize: ${c.title}` : `Contest prize (re-settled): ${c.title}`,
        grantKey: `contest:${c.id}:v${version}`,
        targetId: c.id,
      });
      if (granted) paid.push({ id: m.id, amount: m.delta });
    } else {
      // A lower prize after an amendment: take back what the balance holds (never below 0); a shortfall stays owed
      // (prize_paid above the prize) and a later re-settlement tries again.
      await lockUser(tx, m.userId);
      const take = Math.min(-m.delta, (await repBalanceOf(tx, m.userId)) ?? 0);
      if (take > 0) {
        const taken = await debit(tx, m.userId, {
          earnKind: "contest_prize_reversal",
          amount: take,
          source: "club",
          reason: `Contest prize corrected: ${c.title}`,
          grantKey: `contest:${c.id}:v${version}:reversal`,
          targetId: c.id,
        });
        if (taken) paid.push({ id: m.id, amount: -take });
      }
    }
  }
  if (paid.length) await addPrizesPaid(tx, paid);
}

/** Settles (or re-settles) one contest if it is due and not held by another run; answers what it did. */
async function settleOne(tx: DbTx, contestId: string): Promise<"settled" | "resettled" | null> {
  const c = await claimDueContest(tx, contestId);
  if (!c) return null;
  const { fp, anyFinal } = await settlementFingerprint(tx, c.id);
  if (c.settledAt && c.settledOn === fp) return null;
  const version = c.settledVersion + 1;
  if (!c.settledAt) {
    // Owned at the lock: a card that left its owner anyway (a staff refund) scores 0 in its slot; then every card is unlocked.
    await voidCardsLeftTheirOwner(tx, c.id);
    await unlockLineupCards(tx, c.id);
  }
  await scoreAndRank(tx, c.id, c.captainMultiplier);
  await pay(tx, c, version, anyFinal);
  await markSettled(tx, c.id, version, fp);
  return c.settledAt ? "resettled" : "settled";
}

export async function runContestsCron(db: Db) {
  const started = Date.now();
  let settled = 0;
  let resettled = 0;
  let checked = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  while (Date.now() - started < CRON_BUDGET_MS) {
    const due = await dueContests(db, after, 20, RESETTLE_WINDOW_DAYS);
    if (due.length === 0) break;
    for (const { id } of due) {
      if (Date.now() - started >= CRON_BUDGET_MS) break;
      checked++;
      const done = await db.$transaction((tx) => settleOne(tx, id), txOptions(SETTLE_TX_MS));
      if (done === "settled") settled++;
      if (done === "resettled") resettled++;
      after = id;
    }
  }
  return { settled, resettled, checked };
}
