import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { award, debit } from "../../core/rep/service";
import { pointsSql } from "./points";

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

const OVER = Prisma.sql`('final', 'postponed', 'canceled')`;

/** Contests whose covered games are all over: not settled yet, or settled within the re-settlement window. */
const dueContests = (db: RawDb, after: string, take: number) =>
  raw(db).$queryRaw<{ id: string }[]>`
    SELECT k.id::text AS id FROM contests k
    WHERE k.id > ${after}::uuid
      AND (k.settled_at IS NULL OR k.settled_at > now() - make_interval(days => ${RESETTLE_WINDOW_DAYS}))
      AND NOT EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id
                      WHERE cg.contest_id = k.id AND g.status::text NOT IN ${OVER})
    ORDER BY k.id LIMIT ${take}`;

interface Claimed {
  id: string;
  title: string;
  settledAt: Date | null;
  settledOn: string | null;
  settledVersion: number;
  captainMultiplier: number;
  prizes: number[];
}

/** What a settlement settles on: every covered game's status and every covered player line, hashed. */
async function fingerprint(tx: DbTx, contestId: string) {
  const [row] = await tx.$queryRaw<{ fp: string; anyFinal: boolean }[]>`
    SELECT md5(coalesce(string_agg(x, '|' ORDER BY x), '')) AS fp,
           EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = ${contestId}::uuid AND g.status = 'final') AS "anyFinal"
    FROM (
      SELECT 'g:' || g.id || ':' || g.status::text AS x FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = ${contestId}::uuid
      UNION ALL
      SELECT concat_ws(':', 's', s.game_id, s.player_id, s.minutes, s.goals, s.assists, s.shots, s.saves, s.yellow_cards, s.red_cards)
      FROM contest_games cg JOIN game_player_stats s ON s.game_id = cg.game_id WHERE cg.contest_id = ${contestId}::uuid
    ) t`;
  return row!;
}

/**
 * Scores and ranks every lineup of the contest in one statement: a player's points summed over the covered games that
 * are final (postponed and canceled games score 0), a void slot 0, the captain's points times the multiplier; ranks
 * 1..n by score desc, captain's points desc, submission time asc, user id asc (unique, so no two lineups share one).
 */
const scoreAndRank = (tx: DbTx, contestId: string, multiplier: number) =>
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

/** Pays each lineup its prize by rank (none when no covered game was played): only the difference from what it got. */
async function pay(tx: DbTx, c: Claimed, version: number, anyFinal: boolean) {
  const moves = await tx.$queryRaw<{ id: string; userId: string; delta: number }[]>`
    SELECT id::text AS id, user_id::text AS "userId", (t.target - prize_paid)::int AS delta
    FROM contest_lineups, LATERAL (SELECT CASE WHEN ${anyFinal} THEN coalesce((${c.prizes}::int[])[rank], 0) ELSE 0 END AS target) t
    WHERE contest_id = ${c.id}::uuid AND t.target <> prize_paid
    ORDER BY user_id`;
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
      const [u] = await tx.$queryRaw<{ balance: number }[]>`SELECT rep_balance::int AS balance FROM users WHERE id = ${m.userId}::uuid`;
      const take = Math.min(-m.delta, u?.balance ?? 0);
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
  if (paid.length)
    await tx.$executeRaw`
      UPDATE contest_lineups l SET prize_paid = prize_paid + x.amount
      FROM unnest(${paid.map((p) => p.id)}::uuid[], ${paid.map((p) => p.amount)}::int[]) AS x(id, amount) WHERE l.id = x.id`;
}

/** Settles (or re-settles) one contest if it is due and not held by another run; answers what it did. */
async function settleOne(tx: DbTx, contestId: string): Promise<"settled" | "resettled" | null> {
  const [c] = await tx.$queryRaw<Claimed[]>`
    SELECT id::text AS id, title, settled_at AS "settledAt", settled_on AS "settledOn", settled_version AS "settledVersion",
           captain_multiplier AS "captainMultiplier", prizes
    FROM contests k WHERE id = ${contestId}::uuid
      AND NOT EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = k.id AND g.status::text NOT IN ${OVER})
    FOR UPDATE SKIP LOCKED`;
  if (!c) return null;
  const { fp, anyFinal } = await fingerprint(tx, c.id);
  if (c.settledAt && c.settledOn === fp) return null;
  const version = c.settledVersion + 1;
  if (!c.settledAt) {
    // Owned at the lock: a card that left its owner anyway (a staff refund) scores 0 in its slot; then every card is unlocked.
    await tx.$executeRaw`
      UPDATE contest_lineup_cards lc SET void = true FROM contest_lineups l, collectibles c
      WHERE lc.contest_id = ${c.id}::uuid AND l.id = lc.lineup_id AND c.id = lc.collectible_id AND c.owner_id <> l.user_id`;
    await tx.$executeRaw`UPDATE contest_lineup_cards SET locked_item_id = NULL WHERE contest_id = ${c.id}::uuid AND locked_item_id IS NOT NULL`;
  }
  await scoreAndRank(tx, c.id, c.captainMultiplier);
  await pay(tx, c, version, anyFinal);
  await tx.$executeRaw`
    UPDATE contests SET settled_at = coalesce(settled_at, now()), settled_version = ${version}, settled_on = ${fp} WHERE id = ${c.id}::uuid`;
  return c.settledAt ? "resettled" : "settled";
}

export async function runContestsCron(db: Db) {
  const started = Date.now();
  let settled = 0;
  let resettled = 0;
  let checked = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  while (Date.now() - started < CRON_BUDGET_MS) {
    const due = await dueContests(db, after, 20);
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
