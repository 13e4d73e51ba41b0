import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { noteBoardsMoved } from "../../core/rep/service";
import { debit } from "../../core/rep/service";
import { gamesToSettle, gameToSettle, lockRepBalance, lockSettlement, predictionsToSettle } from "./queries";
import { POINTS, outcomeOf } from "./schemas";
import { creditPoints, ensureSettlement, recordSettlement, setPredictionPoints } from "./writes";

// Settlement (GET /api/cron/predictions-settle): each final game's predictions get their points (the table in
// POINTS, docs/domains/predictions.md) as Club Rep, once per game, and again whenever what the game was settled on
// changes (the final score amended by the live feed or the sync, the kick-off moved, the game canceled or postponed
// after its settlement). prediction_settlements records what each game was settled on and its version; a run settles
// a game under that row's lock (FOR UPDATE SKIP LOCKED: two runs at once never settle one game twice), re-reading the
// game under it. Each prediction keeps the Rep the ledger holds for it (rep_credited): a settlement writes only the
// difference to its new points, a credit (awardRowsCtes) or a debit, under the grant key
// prediction:<gameId>:<version>, so an entry is never edited and a retried version is never credited twice.

/** At most this long per call; the rest waits for the next run. */
export const CRON_BUDGET_MS = 20_000;
const GAMES_PER_RUN = 100;

export const EARN_KIND = "prediction_points";
export const CORRECTION_KIND = "prediction_correction";
const SOURCE = "club" as const;

/** Points of a predicted score against the final one: exact 10, right outcome and goal difference 6, right outcome 3, else 0. */
export function pointsFor(p: { homeScore: number; awayScore: number }, final: { home: number; away: number }): number {
  if (p.homeScore === final.home && p.awayScore === final.away) return POINTS.exact;
  if (outcomeOf(p.homeScore, p.awayScore) !== outcomeOf(final.home, final.away)) return POINTS.miss;
  return p.homeScore - p.awayScore === final.home - final.away ? POINTS.goalDifference : POINTS.outcome;
}

interface Settled {
  resettled: boolean;
  predictions: number;
}

/** Settles one game in one transaction, or answers null when another run holds it or nothing changed. */
export async function settleGame(db: Db, gameId: string, now = new Date()): Promise<Settled | null> {
  return db.$transaction(async (tx) => {
    await ensureSettlement(tx, gameId);
    const s = await lockSettlement(tx, gameId);
    if (!s) return null;
    const g = await gameToSettle(tx, gameId);
    if (!g) return null;
    const final = g.status === "final" && g.homeScore !== null && g.awayScore !== null ? { home: g.homeScore, away: g.awayScore } : null;
    const voided = g.status === "postponed" || g.status === "canceled";
    if (!final && !voided) return null;
    const same =
      s.version > 0 &&
      s.homeScore === (final?.home ?? null) &&
      s.awayScore === (final?.away ?? null) &&
      (voided || s.startsAt?.getTime() === g.startsAt.getTime());
    if (same || (voided && s.version === 0)) return null;

    const version = s.version + 1;
    const grantKey = `prediction:${gameId}:${version}`;
    const predictions = await predictionsToSettle(tx, gameId);
    const points = predictions.map((p) => (final && p.counts ? pointsFor(p, final) : 0));
    const credited = predictions.map((p) => p.repCredited);

    // Credits: one statement per distinct amount (awardRowsCtes credits one amount to many users, each once).
    const raises = new Map<number, number[]>();
    predictions.forEach((p, i) => {
      const delta = points[i]! - p.repCredited;
      if (delta > 0) raises.set(delta, [...(raises.get(delta) ?? []), i]);
    });
    for (const [amount, indexes] of raises) {
      const users = indexes.map((i) => predictions[i]!.userId);
      const took = await creditPoints(
        tx,
        users,
        { gameId, grantKey, now },
        { earnKind: EARN_KIND, amount, source: SOURCE, reason: version === 1 ? "Match prediction points" : "Match prediction points (score corrected)" },
      );
      const tookSet = new Set(took);
      for (const i of indexes)
        if (tookSet.has(predictions[i]!.userId)) {
          credited[i] = credited[i]! + amount;
          noteBoardsMoved(predictions[i]!.userId);
        }
    }
    // Decreases: a compensating debit each, of what the balance holds at most (Rep never goes negative).
    for (const [i, p] of predictions.entries()) {
      const take = p.repCredited - points[i]!;
      if (take <= 0) continue;
      const taken = await debitUpTo(tx, p.userId, take, { grantKey, gameId, now });
      credited[i] = credited[i]! - taken;
    }

    const ids = predictions.map((p) => p.id);
    await setPredictionPoints(tx, ids, points, credited, now);
    await recordSettlement(tx, gameId, { final, startsAt: g.startsAt, version, now });
    return { resettled: s.version > 0, predictions: predictions.length };
  }, txOptions(60_000));
}

/** Debits up to `amount` of the user's Rep (under the user's row lock): what the balance holds when it holds less. */
async function debitUpTo(tx: DbTx, userId: string, amount: number, k: { grantKey: string; gameId: string; now: Date }): Promise<number> {
  const take = Math.min(amount, await lockRepBalance(tx, userId));
  if (take <= 0) return 0;
  const done = await debit(tx, userId, {
    earnKind: CORRECTION_KIND,
    amount: take,
    source: SOURCE,
    reason: "Match prediction points corrected (final score changed)",
    grantKey: k.grantKey,
    targetId: k.gameId,
    createdAt: k.now,
  });
  return done ? take : 0;
}

/** The cron: settles every due game, one transaction each, within CRON_BUDGET_MS. */
export async function runSettleCron(db: Db) {
  const deadline = Date.now() + CRON_BUDGET_MS;
  let games = 0;
  let resettled = 0;
  let predictions = 0;
  for (const gameId of await gamesToSettle(db, GAMES_PER_RUN)) {
    if (Date.now() > deadline) break;
    const done = await settleGame(db, gameId);
    if (!done) continue;
    games += 1;
    if (done.resettled) resettled += 1;
    predictions += done.predictions;
  }
  return { games, resettled, predictions };
}
