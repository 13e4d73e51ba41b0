import type { RawDb } from "../../db/raw";
import type { DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { errors as predictionsErrors } from "./errors";
import { gameById, historyRows, historyTotals, predictionOf, scoreCounts, upsertPrediction, type GameRow, type PredictionRow } from "./queries";
import { CROWD_TOP_SCORES, OUTCOMES, outcomeOf, type CrowdSplit, type PredictionInput } from "./schemas";

// Predictions: one per fan and game, editable until kick-off (the game's starts_at on this server's clock, and only
// while the game is scheduled), the crowd split once locked, the caller's history. Voiding is data-driven: a
// prediction last edited at or after the game's starts_at (a kick-off moved earlier by the sync), or of a postponed
// or canceled game, counts nowhere (queries.ts COUNTS). Settlement: settle.ts. Rules: docs/domains/predictions.md.

type Db = RawDb | DbTx;

/** Predictions of the game are locked: it is no longer scheduled, or its kick-off has passed on the server's clock. */
export const isLocked = (g: Pick<GameRow, "status" | "startsAt">, now = new Date()) => g.status !== "scheduled" || now.getTime() >= g.startsAt.getTime();

const isVoid = (p: Pick<PredictionRow, "updatedAt">, g: Pick<GameRow, "status" | "startsAt">) =>
  g.status === "postponed" || g.status === "canceled" || p.updatedAt.getTime() >= g.startsAt.getTime();

const stateOf = (p: PredictionRow, g: GameRow, now: Date): "open" | "locked" | "void" | "settled" =>
  isVoid(p, g) ? "void" : p.points !== null ? "settled" : isLocked(g, now) ? "locked" : "open";

const toGame = (g: GameRow) => ({
  id: g.id,
  homeTeamId: g.homeTeamId,
  awayTeamId: g.awayTeamId,
  startsAt: new Date(g.startsAt).toISOString(),
  status: g.status,
  homeScore: g.homeScore,
  awayScore: g.awayScore,
});

function toPrediction(p: PredictionRow, state: ReturnType<typeof stateOf>) {
  return {
    gameId: p.gameId,
    outcome: p.outcome,
    homeScore: p.homeScore,
    awayScore: p.awayScore,
    state,
    points: p.points,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    settledAt: p.settledAt?.toISOString() ?? null,
  };
}

/** GET /api/events/{gameId}/prediction: the game, its lock and the caller's prediction (null when none); 404 for no such game. */
export async function getMyPrediction(db: Db, userId: string, gameId: string) {
  const [game, prediction] = await Promise.all([gameById(db, gameId), predictionOf(db, userId, gameId)]);
  if (!game) throw notFound("Game");
  const now = new Date();
  return {
    game: toGame(game),
    locked: isLocked(game, now),
    locksAt: game.startsAt.toISOString(),
    prediction: prediction ? toPrediction(prediction, stateOf(prediction, game, now)) : null,
  };
}

/**
 * PUT /api/events/{gameId}/prediction: one statement writes it while the game is open (upsertPrediction: the lock is
 * its WHERE, so a kick-off passing between a read and the write cannot let an edit through). No row written: 404 for
 * an unknown game, else 409 PREDICTION_LOCKED.
 */
export async function putPrediction(db: Db, userId: string, gameId: string, input: PredictionInput) {
  const now = new Date();
  const row = await upsertPrediction(db, { id: uuidv7(now.getTime()), userId, gameId, ...input, now });
  if (!row) {
    const game = await gameById(db, gameId);
    if (!game) throw notFound("Game");
    throw new DomainError(
      predictionsErrors.PREDICTION_LOCKED,
      game.status === "scheduled" ? `Predictions locked at kick-off (${game.startsAt.toISOString()}).` : `Predictions are locked: the game is ${game.status}.`,
    );
  }
  const { created, ...prediction } = row;
  // The write succeeded only while the game was scheduled and before its start: the prediction is open.
  return { created, prediction: toPrediction(prediction, "open") };
}

const pct = (n: number, total: number) => (total === 0 ? 0 : Math.round((n * 1000) / total) / 10);

/**
 * The crowd split of a game: counted (not void) predictions per outcome and the most predicted exact scores. Whatever
 * the lock: callers that show it to fans check it first (getCrowdSplit); the live stream sends it at kick-off.
 */
export async function crowdSplit(db: Db, gameId: string): Promise<CrowdSplit> {
  const rows = await scoreCounts(db, gameId);
  const total = rows.reduce((s, r) => s + r.n, 0);
  const byOutcome = { home: 0, draw: 0, away: 0 };
  for (const r of rows) byOutcome[outcomeOf(r.homeScore, r.awayScore)] += r.n;
  const top = [...rows]
    .sort((a, b) => b.n - a.n || a.homeScore - b.homeScore || a.awayScore - b.awayScore)
    .slice(0, CROWD_TOP_SCORES)
    .map((r) => ({ homeScore: r.homeScore, awayScore: r.awayScore, count: r.n, percent: pct(r.n, total) }));
  return {
    gameId,
    total,
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, { count: byOutcome[o], percent: pct(byOutcome[o], total) }])) as CrowdSplit["outcomes"],
    topScores: top,
  };
}

/** GET /api/events/{gameId}/predictions: the crowd split, only once locked (409 PREDICTIONS_NOT_LOCKED before); 404 for no such game. */
export async function getCrowdSplit(db: Db, gameId: string) {
  const game = await gameById(db, gameId);
  if (!game) throw notFound("Game");
  if (!isLocked(game))
    throw new DomainError(predictionsErrors.PREDICTIONS_NOT_LOCKED, `The crowd split is shown from kick-off (${game.startsAt.toISOString()}).`);
  return crowdSplit(db, gameId);
}

/** GET /api/v1/engage/predictions: the caller's predictions newest first (keyset), with their total points. */
export async function predictionHistory(db: Db, userId: string, q: { cursor?: string; limit: number }) {
  const [rows, totals] = await Promise.all([historyRows(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1), historyTotals(db, userId)]);
  const now = new Date();
  const page = keysetPage(
    "predictions",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => {
      const game = { ...r.game, startsAt: new Date(r.game.startsAt) };
      return { ...toPrediction(r, stateOf(r, game, now)), game: toGame(game) };
    },
  );
  return { ...page, ...totals };
}
