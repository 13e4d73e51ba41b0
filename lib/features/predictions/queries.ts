import { Prisma } from "../../generated/prisma/client";
import { raw, type RawDb } from "../../db/raw";
import type { Db, DbTx } from "../../db/client";
import type { Outcome } from "./schemas";

// Predictions' reads and the prediction's upsert (lib/features/predictions/service.ts), and the settlement's reads
// (settle.ts; its writes are writes.ts). Rules: docs/domains/predictions.md.

export type GameStatus = "scheduled" | "live" | "final" | "postponed" | "canceled";

export interface GameRow {
  id: string;
  homeTeamId: string;
  awayTeamId: string;
  startsAt: Date;
  status: GameStatus;
  homeScore: number | null;
  awayScore: number | null;
}

export interface PredictionRow {
  id: string;
  userId: string;
  gameId: string;
  outcome: Outcome;
  homeScore: number;
  awayScore: number;
  createdAt: Date;
  updatedAt: Date;
  points: number | null;
  settledAt: Date | null;
}

const GAME_COLUMNS = Prisma.sql`g.id, g.home_team_id AS "homeTeamId", g.away_team_id AS "awayTeamId", g.starts_at AS "startsAt",
  g.status::text AS status, g.home_score AS "homeScore", g.away_score AS "awayScore"`;
const PREDICTION_COLUMNS = Prisma.sql`p.id, p.user_id AS "userId", p.game_id AS "gameId", p.outcome::text AS outcome, p.home_score AS "homeScore",
  p.away_score AS "awayScore", p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.points, p.settled_at AS "settledAt"`;

/**
 * The condition a prediction `p` of game `g` counts under (not void): made and last edited before the game's real
 * kick-off, and the game not postponed or canceled. Every read and the settlement use this one definition.
 */
export const COUNTS = Prisma.sql`(p.updated_at < g.starts_at AND g.status NOT IN ('postponed', 'canceled'))`;

export async function gameById(db: RawDb | DbTx, gameId: string): Promise<GameRow | null> {
  const [row] = await raw(db).$queryRaw<GameRow[]>`SELECT ${GAME_COLUMNS} FROM games g WHERE g.id = ${gameId}`;
  return row ?? null;
}

export async function predictionOf(db: RawDb | DbTx, userId: string, gameId: string): Promise<PredictionRow | null> {
  const [row] = await raw(db).$queryRaw<PredictionRow[]>`
    SELECT ${PREDICTION_COLUMNS} FROM predictions p WHERE p.user_id = ${userId}::uuid AND p.game_id = ${gameId}`;
  return row ?? null;
}

/**
 * The caller's prediction written in one statement guarded by the lock: inserted, or its outcome and score replaced
 * (updated_at moves), only while the game is scheduled and `now` (the server's clock) is before its starts_at. No row:
 * the game is unknown or locked (the caller tells which).
 */
export async function upsertPrediction(
  db: RawDb | DbTx,
  p: { id: string; userId: string; gameId: string; outcome: Outcome; homeScore: number; awayScore: number; now: Date },
): Promise<(PredictionRow & { created: boolean }) | null> {
  const [row] = await raw(db).$queryRaw<(PredictionRow & { created: boolean })[]>`
    INSERT INTO predictions AS p (id, user_id, game_id, outcome, home_score, away_score, created_at, updated_at)
    SELECT ${p.id}::uuid, ${p.userId}::uuid, g.id, ${p.outcome}::"PredictionOutcome", ${p.homeScore}::int, ${p.awayScore}::int, ${p.now}::timestamptz, ${p.now}::timestamptz
    FROM games g WHERE g.id = ${p.gameId} AND g.status = 'scheduled' AND g.starts_at > ${p.now}::timestamptz
    ON CONFLICT (user_id, game_id) DO UPDATE
      SET outcome = EXCLUDED.outcome, home_score = EXCLUDED.home_score, away_score = EXCLUDED.away_score, updated_at = EXCLUDED.updated_at
    RETURNING ${PREDICTION_COLUMNS}, (p.xmax = 0) AS created`;
  return row ?? null;
}

/** Counted predictions of a game per exact score (void ones left out). */
export async function scoreCounts(db: RawDb | DbTx, gameId: string) {
  return raw(db).$queryRaw<{ homeScore: number; awayScore: number; n: number }[]>`
    SELECT p.home_score AS "homeScore", p.away_score AS "awayScore", count(*)::int AS n
    FROM predictions p JOIN games g ON g.id = p.game_id
    WHERE p.game_id = ${gameId} AND ${COUNTS}
    GROUP BY p.home_score, p.away_score`;
}

/** A page of the caller's predictions, newest first (uuidv7 ids), with their games. */
export async function historyRows(db: RawDb | DbTx, userId: string, before: string | undefined, take: number) {
  return raw(db).$queryRaw<(PredictionRow & { game: GameRow })[]>`
    SELECT ${PREDICTION_COLUMNS}, json_build_object('id', g.id, 'homeTeamId', g.home_team_id, 'awayTeamId', g.away_team_id, 'startsAt', g.starts_at,
      'status', g.status, 'homeScore', g.home_score, 'awayScore', g.away_score) AS game
    FROM predictions p JOIN games g ON g.id = p.game_id
    WHERE p.user_id = ${userId}::uuid ${before ? Prisma.sql`AND p.id < ${before}::uuid` : Prisma.empty}
    ORDER BY p.id DESC LIMIT ${take}`;
}

export async function historyTotals(db: RawDb | DbTx, userId: string) {
  const [row] = await raw(db).$queryRaw<{ totalPoints: number; settled: number }[]>`
    SELECT coalesce(sum(points), 0)::int AS "totalPoints", count(points)::int AS settled FROM predictions WHERE user_id = ${userId}::uuid`;
  return row!;
}

// ---------------------------------------------------------------------------------------------------------------
// The settlement's reads (lib/features/predictions/settle.ts).

/** Games whose predictions need (re)settling: final and not settled on this score and kick-off, or settled and since voided. */
export async function gamesToSettle(db: Db, take: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT g.id FROM games g LEFT JOIN prediction_settlements s ON s.game_id = g.id
    WHERE ((g.status = 'final' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL
            AND (s.game_id IS NULL OR s.version = 0 OR s.home_score IS DISTINCT FROM g.home_score OR s.away_score IS DISTINCT FROM g.away_score
                 OR s.starts_at IS DISTINCT FROM g.starts_at))
        OR (g.status IN ('postponed', 'canceled') AND s.home_score IS NOT NULL))
      AND EXISTS (SELECT 1 FROM predictions p WHERE p.game_id = g.id)
    ORDER BY g.starts_at, g.id
    LIMIT ${take}`;
  return rows.map((r) => r.id);
}

/** What the game was last settled on, and its version, its row locked; none when another run holds it (SKIP LOCKED). */
export async function lockSettlement(tx: DbTx, gameId: string) {
  const [s] = await tx.$queryRaw<{ homeScore: number | null; awayScore: number | null; startsAt: Date | null; version: number }[]>`
    SELECT home_score AS "homeScore", away_score AS "awayScore", starts_at AS "startsAt", version
    FROM prediction_settlements WHERE game_id = ${gameId} FOR UPDATE SKIP LOCKED`;
  return s;
}

/** The game as a settlement reads it (under the settlement's lock). */
export async function gameToSettle(tx: DbTx, gameId: string) {
  const [g] = await tx.$queryRaw<{ status: string; homeScore: number | null; awayScore: number | null; startsAt: Date }[]>`
    SELECT status::text AS status, home_score AS "homeScore", away_score AS "awayScore", starts_at AS "startsAt" FROM games WHERE id = ${gameId}`;
  return g;
}

/** The game's predictions, by user, each with the Rep the ledger holds for it and whether it counts (COUNTS). */
export function predictionsToSettle(tx: DbTx, gameId: string) {
  return tx.$queryRaw<{ id: string; userId: string; homeScore: number; awayScore: number; repCredited: number; counts: boolean }[]>`
    SELECT p.id, p.user_id AS "userId", p.home_score AS "homeScore", p.away_score AS "awayScore", p.rep_credited AS "repCredited", ${COUNTS} AS counts
    FROM predictions p JOIN games g ON g.id = p.game_id WHERE p.game_id = ${gameId} ORDER BY p.user_id`;
}

/** The user's Rep balance (0 for an unknown user), their row locked (FOR NO KEY UPDATE) for the rest of the transaction. */
export async function lockRepBalance(tx: DbTx, userId: string): Promise<number> {
  const [u] = await tx.$queryRaw<{ balance: bigint }[]>`SELECT rep_balance AS balance FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return Number(u?.balance ?? 0);
}
