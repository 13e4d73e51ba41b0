import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { POINTS } from "./points";

// The settlement's writes (settle.ts): the lineups' cards, scores, ranks and prizes paid, and the contest's settled
// state. The contests' and lineups' own writes are queries.ts's.

/** pointsOf (points.ts) as SQL over a game_player_stats row aliased `s`. */
export const pointsSql = Prisma.sql`(
  CASE WHEN s.minutes > 0 THEN ${POINTS.appearance}::int ELSE 0 END + CASE WHEN s.minutes >= 60 THEN ${POINTS.sixtyMinutes}::int ELSE 0 END
  + s.goals * ${POINTS.goal}::int + s.assists * ${POINTS.assist}::int + s.shots * ${POINTS.shot}::int + s.saves * ${POINTS.save}::int
  + s.yellow_cards * ${POINTS.yellowCard}::int + s.red_cards * ${POINTS.redCard}::int)`;

/** Voids the slots whose card is no longer its lineup's owner's. */
export const voidCardsLeftTheirOwner = (tx: DbTx, contestId: string) =>
  tx.$executeRaw`
    UPDATE contest_lineup_cards lc SET void = true FROM contest_lineups l, collectibles c
    WHERE lc.contest_id = ${contestId}::uuid AND l.id = lc.lineup_id AND c.id = lc.collectible_id AND c.owner_id <> l.user_id`;

/** Releases the locks the contest's lineups hold on their cards. */
export const unlockLineupCards = (tx: DbTx, contestId: string) =>
  tx.$executeRaw`UPDATE contest_lineup_cards SET locked_item_id = NULL WHERE contest_id = ${contestId}::uuid AND locked_item_id IS NOT NULL`;

/**
 * Scores and ranks every lineup of the contest in one statement: a player's points summed over the covered games that
 * are final (postponed and canceled games score 0), a void slot 0, the captain's points times the multiplier; ranks
 * 1..n by score desc, captain's points desc, submission time asc, user id asc (unique, so no two lineups share one).
 */
export const scoreAndRank = (tx: DbTx, contestId: string, multiplier: number) =>
  tx.$executeRaw`
    WITH pts AS (
      SELECT s.player_id, SUM(${pointsSql})::int AS p
      FROM contest_games cg JOIN games g ON g.id = cg.game_id AND g.status = 'final' JOIN game_player_stats s ON s.game_id = cg.game_id
      WHERE cg.contest_id = ${contestId}::uuid GROUP BY s.player_id
    ), per AS (
      SELECT lc.lineup_id,
             SUM(CASE WHEN lc.void THEN 0 ELSE coalesce(p.p, 0) END * CASE WHEN lc.collectible_id = l.captain_id THEN ${multiplier}::int ELSE 1 END)::int AS score,
             SUM(CASE WHEN lc.void OR lc.collectible_id <> l.captain_id THEN 0 ELSE coalesce(p.p, 0) * ${multiplier}::int END)::int AS cap
      FROM contest_lineup_cards lc JOIN contest_lineups l ON l.id = lc.lineup_id LEFT JOIN pts p ON p.player_id = lc.player_id
      WHERE lc.contest_id = ${contestId}::uuid GROUP BY lc.lineup_id
    ), ranked AS (
      SELECT l.id, coalesce(per.score, 0) AS score, coalesce(per.cap, 0) AS cap,
             row_number() OVER (ORDER BY coalesce(per.score, 0) DESC, coalesce(per.cap, 0) DESC, l.submitted_at, l.user_id) AS rank
      FROM contest_lineups l LEFT JOIN per ON per.lineup_id = l.id WHERE l.contest_id = ${contestId}::uuid
    )
    UPDATE contest_lineups l SET score = r.score, captain_score = r.cap, rank = r.rank
    FROM ranked r WHERE l.id = r.id AND (l.score, l.captain_score, l.rank) IS DISTINCT FROM (r.score, r.cap, r.rank)`;

/** Adds what each lineup was paid (or, negative, taken back) to its prize_paid. */
export const addPrizesPaid = (tx: DbTx, paid: { id: string; amount: number }[]) =>
  tx.$executeRaw`
    UPDATE contest_lineups l SET prize_paid = prize_paid + x.amount
    FROM unnest(${paid.map((p) => p.id)}::uuid[], ${paid.map((p) => p.amount)}::int[]) AS x(id, amount) WHERE l.id = x.id`;

/** Records the settlement: its version and the fingerprint it settled on (the first settlement's time stays). */
export const markSettled = (tx: DbTx, contestId: string, version: number, fingerprint: string) =>
  tx.$executeRaw`
    UPDATE contests SET settled_at = coalesce(settled_at, now()), settled_version = ${version}, settled_on = ${fingerprint} WHERE id = ${contestId}::uuid`;
