import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { UUIDV7_SQL } from "../../db/ids";
import { CARD_COLUMNS, type CollectibleRow } from "../../core/collectibles/service";

// Contests: contests with their games, lineups with their cards, the leaderboard. The lock in force (LOCKED) and the
// status (STATUS) are SQL over the contest row `k` and its games, so lists filter by them.

/** The lock in force: the set lock or any covered game's kick-off, whichever is earlier (a kick-off moved earlier moves it). */
const LOCK_AT = Prisma.sql`LEAST(k.lock_at, (SELECT min(g.starts_at) FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = k.id))`;
/** Locked: the lock passed, or a covered game left `scheduled` (live, or over) even before its set kick-off. */
const LOCKED = Prisma.sql`(${LOCK_AT} <= now() OR EXISTS (
  SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = k.id AND g.status <> 'scheduled'))`;
const STATUS = Prisma.sql`CASE WHEN k.settled_at IS NOT NULL THEN 'settled' WHEN ${LOCKED} THEN 'live' ELSE 'open' END`;

export interface ContestRow {
  id: string;
  title: string;
  status: "open" | "live" | "settled";
  lineupSize: number;
  slots: string[];
  rarityCap: Record<string, number>;
  captainMultiplier: number;
  prizes: number[];
  lockAt: Date;
  lineupCount: number;
  settledAt: Date | null;
  settledVersion: number;
  settledOn: string | null;
  createdAt: Date;
}

const CONTEST = Prisma.sql`
  SELECT k.id::text AS id, k.title, ${STATUS} AS status, k.lineup_size AS "lineupSize", k.slots, k.rarity_cap AS "rarityCap",
         k.captain_multiplier AS "captainMultiplier", k.prizes, ${LOCK_AT} AS "lockAt", k.lineup_count AS "lineupCount",
         k.settled_at AS "settledAt", k.settled_version AS "settledVersion", k.settled_on AS "settledOn", k.created_at AS "createdAt"
  FROM contests k`;

/**
 * The contest, optionally under a row lock. `keyShare` (a lineup's PUT and DELETE) makes settlement's FOR UPDATE wait
 * for the lineup, yet lets the lineup count itself (countLineups: an UPDATE of a non-key column takes FOR NO KEY
 * UPDATE, which conflicts with FOR SHARE but not with FOR KEY SHARE): two lineups holding FOR SHARE and both
 * upgrading to count deadlocked (docs/decisions/0063-contest-entries-without-lock-upgrades.md).
 */
export async function contestById(db: RawDb | DbTx, id: string, lock?: "keyShare"): Promise<ContestRow | undefined> {
  const mode = lock === "keyShare" ? Prisma.sql`FOR KEY SHARE OF k` : Prisma.empty;
  const [row] = await raw(db).$queryRaw<ContestRow[]>`${CONTEST} WHERE k.id = ${id}::uuid ${mode}`;
  return row;
}

/** Contests newest first (keyset on the time-ordered id), optionally by status now. */
export function contestsPage(db: RawDb | DbTx, q: { status?: ContestRow["status"]; before?: string; take: number }) {
  const where = [Prisma.sql`true`];
  if (q.status === "settled") where.push(Prisma.sql`k.settled_at IS NOT NULL`);
  if (q.status === "live") where.push(Prisma.sql`k.settled_at IS NULL AND ${LOCKED}`);
  if (q.status === "open") where.push(Prisma.sql`k.settled_at IS NULL AND NOT ${LOCKED}`);
  if (q.before) where.push(Prisma.sql`k.id < ${q.before}::uuid`);
  return raw(db).$queryRaw<ContestRow[]>`${CONTEST} WHERE ${Prisma.join(where, " AND ")} ORDER BY k.id DESC LIMIT ${q.take}`;
}

export interface ContestGameRow {
  contestId: string;
  id: string;
  startsAt: Date;
  status: string;
  homeTeamId: string;
  awayTeamId: string;
}

export const gamesOfContests = (db: RawDb | DbTx, contestIds: string[]) =>
  raw(db).$queryRaw<ContestGameRow[]>`
    SELECT cg.contest_id::text AS "contestId", g.id, g.starts_at AS "startsAt", g.status::text AS status,
           g.home_team_id AS "homeTeamId", g.away_team_id AS "awayTeamId"
    FROM contest_games cg JOIN games g ON g.id = cg.game_id
    WHERE cg.contest_id = ANY(${contestIds}::uuid[]) ORDER BY g.starts_at, g.id`;

export const gamesByIds = (db: RawDb | DbTx, ids: string[]) =>
  raw(db).$queryRaw<{ id: string; startsAt: Date; status: string }[]>`
    SELECT id, starts_at AS "startsAt", status::text AS status FROM games WHERE id = ANY(${ids}::text[])`;

export async function insertContest(
  tx: DbTx,
  c: { title: string; slots: string[]; rarityCap: Record<string, number>; captainMultiplier: number; prizes: number[]; lockAt: Date; gameIds: string[] },
): Promise<string> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO contests (id, title, lineup_size, slots, rarity_cap, captain_multiplier, prizes, lock_at)
    VALUES (${UUIDV7_SQL}, ${c.title}, ${c.slots.length}, ${c.slots}::text[], ${JSON.stringify(c.rarityCap)}::jsonb, ${c.captainMultiplier},
            ${c.prizes}::int[], ${c.lockAt})
    RETURNING id::text AS id`;
  await tx.$executeRaw`INSERT INTO contest_games (contest_id, game_id) SELECT ${row!.id}::uuid, unnest(${c.gameIds}::text[])`;
  return row!.id;
}

export interface LineupRow {
  id: string;
  contestId: string;
  userId: string;
  captainId: string;
  submittedAt: Date;
  score: number | null;
  captainScore: number | null;
  rank: number | null;
  prizePaid: number;
}

const LINEUP = Prisma.sql`
  SELECT l.id::text AS id, l.contest_id::text AS "contestId", l.user_id::text AS "userId", l.captain_id::text AS "captainId",
         l.submitted_at AS "submittedAt", l.score, l.captain_score AS "captainScore", l.rank, l.prize_paid AS "prizePaid"
  FROM contest_lineups l`;

export async function lineupOf(db: RawDb | DbTx, contestId: string, userId: string, lock = false): Promise<LineupRow | undefined> {
  const [row] = await raw(db).$queryRaw<LineupRow[]>`
    ${LINEUP} WHERE l.contest_id = ${contestId}::uuid AND l.user_id = ${userId}::uuid ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  return row;
}

export type LineupCardRow = CollectibleRow & { slot: number; position: string | null; void: boolean };

export const cardsOfLineup = (db: RawDb | DbTx, lineupId: string) =>
  raw(db).$queryRaw<LineupCardRow[]>`
    SELECT c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
           c.acquired_at AS "acquiredAt", ${CARD_COLUMNS}, lc.slot, p.position, lc.void
    FROM contest_lineup_cards lc JOIN collectibles c ON c.id = lc.collectible_id JOIN collectible_cards k ON k.id = c.card_id
    LEFT JOIN players p ON p.id = lc.player_id
    WHERE lc.lineup_id = ${lineupId}::uuid ORDER BY lc.slot`;

export interface CardState {
  id: string;
  ownerId: string;
  rarity: string;
  playerId: string | null;
  position: string | null;
  covered: boolean;
  listed: boolean;
  minted: boolean;
}

/** What a lineup checks of each card: owner, rarity, player and position, whether the player's team plays in a covered game. */
export const cardStates = (tx: DbTx, contestId: string, collectibleIds: string[]) =>
  tx.$queryRaw<CardState[]>`
    SELECT c.id::text AS id, c.owner_id::text AS "ownerId", k.rarity::text AS rarity, k.player_id AS "playerId", p.position,
           EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id
                   WHERE cg.contest_id = ${contestId}::uuid AND p.team_id IN (g.home_team_id, g.away_team_id)) AS covered,
           EXISTS (SELECT 1 FROM listings li WHERE li.active_item_id = c.id) AS listed,
           EXISTS (SELECT 1 FROM nft_mints m WHERE m.mint_key = c.id::text) AS minted
    FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id LEFT JOIN players p ON p.id = k.player_id
    WHERE c.id = ANY(${collectibleIds}::uuid[])`;

/**
 * Creates the caller's lineup if missing and locks it: the lineup's lock comes before the collectibles'. `created`:
 * this transaction inserted it, so it counts it (countLineups) once every rule has passed.
 */
export async function lockLineup(tx: DbTx, contestId: string, userId: string, captainId: string): Promise<{ id: string; cardIds: string[]; created: boolean }> {
  for (;;) {
    const created = await tx.$executeRaw`
      INSERT INTO contest_lineups (id, contest_id, user_id, captain_id) VALUES (${UUIDV7_SQL}, ${contestId}::uuid, ${userId}::uuid, ${captainId}::uuid)
      ON CONFLICT (contest_id, user_id) DO NOTHING`;
    const [row] = await tx.$queryRaw<{ id: string; cardIds: string[] }[]>`
      SELECT l.id::text AS id, ARRAY(SELECT collectible_id::text FROM contest_lineup_cards WHERE lineup_id = l.id) AS "cardIds"
      FROM contest_lineups l WHERE contest_id = ${contestId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
    if (row) return { ...row, created: created > 0 };
    // The fan's concurrent DELETE withdrew the lineup while this waited for its lock: create it again.
  }
}

/**
 * Moves the contest's lineup count by `delta` (+1 a new lineup, -1 a withdrawal): the last write of the transaction,
 * as the row lock it takes (FOR NO KEY UPDATE) makes the next lineup counted on this contest wait until the commit.
 */
export async function countLineups(tx: DbTx, contestId: string, delta: 1 | -1) {
  await tx.$executeRaw`UPDATE contests SET lineup_count = lineup_count + ${delta}::int WHERE id = ${contestId}::uuid`;
}

/** Replaces a lineup's cards (each locked in its slot) and captain; the submission time is now. */
export async function replaceLineupCards(
  tx: DbTx,
  l: { id: string; contestId: string; captainId: string },
  cards: { collectibleId: string; slot: number; playerId: string }[],
) {
  await tx.$executeRaw`DELETE FROM contest_lineup_cards WHERE lineup_id = ${l.id}::uuid`;
  await tx.$executeRaw`
    INSERT INTO contest_lineup_cards (lineup_id, collectible_id, contest_id, slot, player_id, locked_item_id)
    SELECT ${l.id}::uuid, x.id, ${l.contestId}::uuid, x.slot, x.player_id, x.id
    FROM unnest(${cards.map((c) => c.collectibleId)}::uuid[], ${cards.map((c) => c.slot)}::int[], ${cards.map((c) => c.playerId)}::text[])
      AS x(id, slot, player_id)`;
  await tx.$executeRaw`UPDATE contest_lineups SET captain_id = ${l.captainId}::uuid, submitted_at = now() WHERE id = ${l.id}::uuid`;
}

/** Deletes a lineup (its cards with it) and uncounts it. */
export async function deleteLineup(tx: DbTx, contestId: string, lineupId: string) {
  await tx.$executeRaw`DELETE FROM contest_lineups WHERE id = ${lineupId}::uuid`;
  await countLineups(tx, contestId, -1);
}

export interface StandingRow {
  lineupId: string;
  rank: number;
  userId: string;
  handle: string | null;
  displayName: string | null;
  score: number;
  captainScore: number;
  submittedAt: Date;
  prizePaid: number;
}

const STANDING = Prisma.sql`
  SELECT l.id::text AS "lineupId", l.rank, l.user_id::text AS "userId", u.handle, u.display_name AS "displayName", l.score,
         l.captain_score AS "captainScore", l.submitted_at AS "submittedAt", l.prize_paid AS "prizePaid"
  FROM contest_lineups l JOIN users u ON u.id = l.user_id`;

/** The settled leaderboard by rank: a keyset scan of (contest_id, rank). */
export const standingsPage = (db: RawDb | DbTx, contestId: string, q: { afterRank: number; take: number }) =>
  raw(db).$queryRaw<StandingRow[]>`
    ${STANDING} WHERE l.contest_id = ${contestId}::uuid AND l.rank > ${q.afterRank} ORDER BY l.rank LIMIT ${q.take}`;

/**
 * What every leaderboard read needs fresh, in one statement: whether (and how many times) the contest settled, and the
 * caller's own standing (none for no caller or no lineup). Undefined for an unknown contest.
 */
export async function leaderboardHead(db: RawDb | DbTx, contestId: string, userId: string | null) {
  const [row] = await raw(db).$queryRaw<({ settledAt: Date | null; settledVersion: number } & Partial<StandingRow>)[]>`
    SELECT k.settled_at AS "settledAt", k.settled_version AS "settledVersion", me.*
    FROM contests k LEFT JOIN LATERAL (${STANDING} WHERE l.contest_id = k.id AND l.user_id = ${userId}::uuid AND l.rank IS NOT NULL) me ON true
    WHERE k.id = ${contestId}::uuid`;
  return row;
}

// Settlement (settle.ts; its writes are writes.ts) --------------------------------------------------------------------

const OVER = Prisma.sql`('final', 'postponed', 'canceled')`;

/** Contests whose covered games are all over: not settled yet, or settled within the re-settlement window (days). */
export const dueContests = (db: RawDb, after: string, take: number, resettleWindowDays: number) =>
  raw(db).$queryRaw<{ id: string }[]>`
    SELECT k.id::text AS id FROM contests k
    WHERE k.id > ${after}::uuid
      AND (k.settled_at IS NULL OR k.settled_at > now() - make_interval(days => ${resettleWindowDays}))
      AND NOT EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id
                      WHERE cg.contest_id = k.id AND g.status::text NOT IN ${OVER})
    ORDER BY k.id LIMIT ${take}`;

export interface ClaimedContest {
  id: string;
  title: string;
  settledAt: Date | null;
  settledOn: string | null;
  settledVersion: number;
  captainMultiplier: number;
  prizes: number[];
}

/** The contest, locked, when its covered games are all over and no other run holds it (FOR UPDATE SKIP LOCKED). */
export async function claimDueContest(tx: DbTx, contestId: string): Promise<ClaimedContest | undefined> {
  const [c] = await tx.$queryRaw<ClaimedContest[]>`
    SELECT id::text AS id, title, settled_at AS "settledAt", settled_on AS "settledOn", settled_version AS "settledVersion",
           captain_multiplier AS "captainMultiplier", prizes
    FROM contests k WHERE id = ${contestId}::uuid
      AND NOT EXISTS (SELECT 1 FROM contest_games cg JOIN games g ON g.id = cg.game_id WHERE cg.contest_id = k.id AND g.status::text NOT IN ${OVER})
    FOR UPDATE SKIP LOCKED`;
  return c;
}

/** What a settlement settles on: every covered game's status and every covered player line, hashed. */
export async function settlementFingerprint(tx: DbTx, contestId: string) {
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
 * The lineups whose prize by rank (none when no covered game was final) differs from what they were paid, by user:
 * the difference to pay (or take back).
 */
export function prizeMoves(tx: DbTx, c: Pick<ClaimedContest, "id" | "prizes">, anyFinal: boolean) {
  return tx.$queryRaw<{ id: string; userId: string; delta: number }[]>`
    SELECT id::text AS id, user_id::text AS "userId", (t.target - prize_paid)::int AS delta
    FROM contest_lineups, LATERAL (SELECT CASE WHEN ${anyFinal} THEN coalesce((${c.prizes}::int[])[rank], 0) ELSE 0 END AS target) t
    WHERE contest_id = ${c.id}::uuid AND t.target <> prize_paid
    ORDER BY user_id`;
}

/** The user's Rep balance (none for no such user). */
export async function repBalanceOf(tx: DbTx, userId: string): Promise<number | undefined> {
  const [u] = await tx.$queryRaw<{ balance: number }[]>`SELECT rep_balance::int AS balance FROM users WHERE id = ${userId}::uuid`;
  return u?.balance;
}
