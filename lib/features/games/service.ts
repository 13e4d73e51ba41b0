import { randomInt } from "node:crypto";
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, type ErrorDetail, sharedErrors } from "../../kernel/errors";
import { award, batchRepWrites, SERVER_AWARDS } from "../../core/rep/service";
import { liveTeamIdOrThrow, toRosterPlayer, toTeamSummary } from "../../core/teams/service";
import { GAME_ALERT_WINDOW_HOURS, RATING_WINDOW_HOURS } from "../../core/notifications/schemas";
import { addUtcDays, utcDay } from "../../time";
import { cluesOf, cluesShown, MAX_GUESSES } from "./guess";
import {
  gameLineupState,
  guessPlayerNames,
  lineupSeedState,
  pickGuessTeam,
  readCrowdRatings,
  readEventRow,
  readEventsPage,
  readGuessSession,
  readLineup,
  readMyScores,
  toEvent,
  toLineupPlayer,
  upcomingGamesOfTeams,
  type EventRow,
  type GuessSessionRow,
} from "./queries";
import type { z } from "zod";
import type { EventList, LineupStatus, RatingsInput, ratingResult } from "./schemas";
import { keyedCache } from "../../db/cache";
import { env } from "../../env";
import { errors as gamesErrors } from "./errors";
import { insertLineupSlots, writeRatings } from "./writes";
import { insertGameAlerts, insertRatingPrompts } from "./alert-writes";
import { errors as repErrors } from "../../core/rep/errors";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { myTeamIdsColumn } from "./queries";

// Games as events, lineups, ratings, guess the player and the daily spin. One-time rules are held by PostgreSQL:
// the lineup by its primary key and unique slot (INSERT … ON CONFLICT DO NOTHING), a rating by the unique
// (user_id, game_id), Rep by award()'s unique (user_id, grant_key), a guess by the session's row lock.

// Events -----------------------------------------------------------------------------------------------------

export function listEvents(db: DbTx, userId: string, q: { status: EventList; cursor?: string; limit: number }) {
  return readEventsPage(db, userId, { list: q.status, cursor: q.cursor, limit: q.limit });
}

// A team's next games are the same for all its fans and change when a sync runs: kept per team for TEAM_CACHE_TTL_MS
// (like team details), so the dashboard reads none of them per request (they were ≈ 40% of its statement's time).
const nextGamesCache = keyedCache<EventRow[]>("__nextGamesCache", () => env().TEAM_CACHE_TTL_MS);

/** Drops the cached next games, e.g. after a sync in this process. */
export function forgetNextGames(): void {
  nextGamesCache.clear();
}

/**
 * The next `count` games of any of `teamIds` not decided yet, soonest first (ties by id), as events: the upcoming
 * list's first page, but without the caller's rating (myRating null: a game is rated once final).
 */
export async function nextGamesOf(db: DbTx, teamIds: string[], count: number) {
  if (count <= 0 || teamIds.length === 0) return [];
  const keyOf = (teamId: string) => `${count}:${teamId}`;
  const byTeam = await nextGamesCache.getMany(teamIds.map(keyOf), async (missing) => {
    const loaded = await upcomingGamesOfTeams(
      db,
      missing.map((k) => k.slice(k.indexOf(":") + 1)),
      count,
    );
    return new Map([...loaded].map(([teamId, events]) => [keyOf(teamId), events]));
  });
  const games = new Map<string, EventRow>();
  for (const events of byTeam.values()) for (const e of events) games.set(e.id, e);
  return [...games.values()]
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, count)
    .map(toEvent);
}

async function eventRowOrThrow(db: DbTx, userId: string, gameId: string): Promise<EventRow> {
  const row = await readEventRow(db, userId, gameId);
  if (!row) throw notFound("Game");
  return row;
}

/** GET /api/events/{gameId}: any game, its lineup (seeded now if the game is final and has none) and the caller's scores. */
export async function getEvent(db: DbTx, userId: string, gameId: string) {
  const row = await eventRowOrThrow(db, userId, gameId);
  const status = await lineupStatusOf(db, row);
  const [lineup, scores] = await Promise.all([status === "seeded" ? readLineup(db, gameId) : [], row.ratedAt ? readMyScores(db, userId, gameId) : []]);
  const event = toEvent({ ...row, hasLineup: status === "seeded" || row.hasLineup });
  return {
    event: {
      ...event,
      lineup: { status, players: lineup.map(toLineupPlayer) },
      myRating: event.myRating ? { ...event.myRating, scores } : null,
    },
  };
}

// Lineups ----------------------------------------------------------------------------------------------------

/**
 * Seeds a final game's lineup from both teams' rosters, once: every active player whose availability is `available`
 * (injured, suspended and unavailable players did not play), the home team's first, each team in roster order
 * (numeric jerseys ascending, then other jerseys, then name, then id), numbered 1..n. Nothing is written when the
 * game is not final, already has a lineup (a lineup never changes once seeded), or either team has no such player.
 * Idempotent and safe under concurrency: one INSERT … SELECT … ON CONFLICT DO NOTHING, and concurrent seeders compute
 * the same rows. For the request paths and for a sync or cron that wants lineups ready when games end. Answers the
 * lineup's status: seeded (with its slot count), unavailable (final, nothing to seed), or pending (not final, or no
 * such game).
 */
export async function seedGameLineup(db: DbTx, gameId: string): Promise<{ status: LineupStatus; slots: number }> {
  await insertLineupSlots(db, gameId);
  const row = await lineupSeedState(db, gameId);
  const slots = row?.slots ?? 0;
  return { status: slots > 0 ? "seeded" : row?.final ? "unavailable" : "pending", slots };
}

/** The lineup status of a game, seeding the lineup first when the game is final and has none. */
async function lineupStatusOf(db: DbTx, row: Pick<EventRow, "id" | "status" | "hasLineup">): Promise<LineupStatus> {
  if (row.hasLineup) return "seeded";
  if (row.status !== "final") return "pending";
  return (await seedGameLineup(db, row.id)).status;
}

// Ratings ----------------------------------------------------------------------------------------------------

/** GET /api/events/{gameId}/ratings: every lineup player's crowd average (1 decimal) and count; 404 for no such game. */
export async function getCrowdRatings(db: DbTx, userId: string | null, gameId: string) {
  const game = await gameLineupState(db, gameId);
  if (!game) throw notFound("Game");
  const status = await lineupStatusOf(db, { id: game.id, status: game.status as EventRow["status"], hasLineup: game.hasLineup });
  return readCrowdRatings(db, gameId, userId, status);
}

const notInLineup = (details: ErrorDetail[]) => new DomainError(sharedErrors.VALIDATION_ERROR, "Only players of this game's lineup can be rated.", details);

// Concurrent submissions of a process share one statement (lib/db/batch.ts), a user's at most once per statement.
const writeRating = batchRepWrites(writeRatings);

/**
 * POST /api/events/{gameId}/ratings. The game must be final (409 GAME_NOT_FINISHED) with a lineup (seeded here if
 * needed; 409 LINEUP_UNAVAILABLE when it cannot be), every player in it (400 VALIDATION_ERROR naming each other one).
 * The caller's rating is one row per game: the first submission creates it, a later one replaces its scores
 * entirely (players left out lose their score). One statement writes it all (writeRatings, shared with concurrent
 * submissions): the rating row (its lock makes concurrent submissions of one fan apply one after another, the last
 * to commit is what stays), the score rows (the first submission's rated players; a replacement upserts a row per
 * lineup player, null when left out, and upserts see the rows a concurrent one committed, where an update or delete
 * would miss them; a score left as it was is not rewritten), and club Rep once per user and game (grant key
 * game_rating:<gameId>). Readers take a missing score row and a null score alike: not rated.
 */
export async function rateGame(db: Db, userId: string, gameId: string, input: RatingsInput, seeded = false): Promise<RatingResult> {
  const now = new Date();
  const { amount } = SERVER_AWARDS.game_rating;
  const ratings = input.ratings.map(({ playerId, score }) => ({ playerId, score }));
  const row = await writeRating(db, { id: uuidv7(now.getTime()), entryId: uuidv7(now.getTime()), userId, gameId, at: now, ratings });
  if (!row?.status) throw notFound("Game");
  const notFinished = (status: string) => new DomainError(gamesErrors.GAME_NOT_FINISHED, `This game is ${status}: players can be rated once it is final.`);
  if (row.status !== "final") throw notFinished(row.status);
  const lineup = row.lineup ?? [];
  if (lineup.length === 0) {
    // A final game without a lineup seeds it first, then the submission runs again (once).
    if (seeded || (await seedGameLineup(db, gameId)).slots === 0) {
      throw new DomainError(
        gamesErrors.LINEUP_UNAVAILABLE,
        "This game's lineup could not be seeded: one or both teams have no available players on their roster.",
      );
    }
    return rateGame(db, userId, gameId, input, true);
  }
  const slotOf = new Map(lineup.map((playerId, i) => [playerId, i]));
  const outside = input.ratings.flatMap((r, i) =>
    slotOf.has(r.playerId) ? [] : [{ path: `body.ratings.${i}.playerId`, message: "Not in this game's lineup" }],
  );
  if (outside.length) throw notInLineup(outside);
  if (!row.createdAt) throw notFinished("gone"); // (not reached: a final game with these players is written)
  const mine = [...ratings].sort((a, b) => slotOf.get(a.playerId)! - slotOf.get(b.playerId)!);
  return {
    gameId,
    rating: { playersRated: mine.length, ratedAt: row.createdAt.toISOString(), updatedAt: row.updatedAt!.toISOString(), scores: mine },
    replaced: !row.created,
    rep: { awarded: row.balance !== null, amount: row.balance !== null ? amount : 0 },
  };
}

/** rateGame's answer (it calls itself once after seeding a lineup, so its type is written out). */
type RatingResult = z.infer<typeof ratingResult>;

// Guess the player ---------------------------------------------------------------------------------------------

/** Rep for the first guess-the-player win of a UTC day (grant key guess_player:<day>). */
export const GUESS_WIN_AWARD = { amount: 10, source: "playerAmp", reason: "Guessed the mystery player" } as const;

/** The caller's session, or 404 (unknown, or another user's: never told apart). */
async function ownSession(db: DbTx, userId: string, sessionId: string, lock: boolean): Promise<GuessSessionRow> {
  const row = await readGuessSession(db, sessionId, lock);
  if (!row || row.userId !== userId) throw notFound("Guess session");
  return row;
}

/** What a client may see: revealed clues only, and the answer only once the session has ended. */
async function toGuessSession(db: DbTx, s: GuessSessionRow) {
  const names = s.guesses.length ? new Map((await guessPlayerNames(db, s.guesses)).map((p) => [p.id, p.name])) : new Map<string, string>();
  const clues = cluesOf(s.answer);
  const wrong = s.guesses.filter((g) => g !== s.playerId).length;
  const ended = s.status !== "active";
  return {
    id: s.id,
    status: s.status,
    team: toTeamSummary(s.team),
    clues: ended ? clues : clues.slice(0, cluesShown(clues.length, wrong)),
    cluesTotal: clues.length,
    guesses: s.guesses.map((id) => ({ playerId: id, name: names.get(id) ?? null, correct: id === s.playerId })),
    guessesLeft: ended ? 0 : MAX_GUESSES - s.guesses.length,
    maxGuesses: MAX_GUESSES,
    startedAt: s.startedAt.toISOString(),
    endedAt: s.endedAt ? s.endedAt.toISOString() : null,
    ...(ended ? { answer: toRosterPlayer(s.answer) } : {}),
  };
}

/**
 * POST /api/games/guess-player/session/start: a new session on `teamIdOrSlug` (404 when missing or archived) or, by
 * default, on one of the caller's followed or joined teams with active players, else on any live team with active
 * players (chosen at random); 409 GUESS_NO_ROSTER when there is none. The mystery player is drawn with the crypto RNG
 * from the team's active players. Sessions are independent: starting one leaves the others as they are.
 */
export async function startGuessSession(db: DbTx, userId: string, teamIdOrSlug?: string) {
  let teamId: string;
  if (teamIdOrSlug !== undefined) {
    teamId = await liveTeamIdOrThrow(db, teamIdOrSlug);
  } else {
    const pick = await pickGuessTeam(db, userId);
    if (!pick) throw new DomainError(gamesErrors.GUESS_NO_ROSTER, "No team has players to guess yet.");
    teamId = pick.id;
  }
  const players = await db.player.findMany({ where: { teamId, active: true }, select: { id: true }, orderBy: { id: "asc" } });
  if (players.length === 0) throw new DomainError(gamesErrors.GUESS_NO_ROSTER, "This team has no active players to guess.");
  const playerId = players[randomInt(players.length)]!.id;
  const created = await db.guessSession.create({ data: { userId, teamId, playerId, guesses: [] }, select: { id: true } });
  return { session: await toGuessSession(db, (await readGuessSession(db, created.id, false))!) };
}

/** GET /api/games/guess-player/session/{sessionId}: resume; another user's session is 404. */
export async function getGuessSession(db: DbTx, userId: string, sessionId: string) {
  return { session: await toGuessSession(db, await ownSession(db, userId, sessionId, false)) };
}

/**
 * POST /api/games/guess-player/session/{sessionId}/guess, under the session's row lock (concurrent guesses apply
 * one at a time, each seeing the others). Ended → 409 GUESS_SESSION_ENDED. The player must be an active player of
 * the session's team and not guessed before in it (400, the guess does not count). Right → won; wrong → the next
 * clue, or lost after MAX_GUESSES guesses. The first win of the caller's UTC day awards GUESS_WIN_AWARD.
 */
export async function guessPlayer(db: Db, userId: string, sessionId: string, playerId: string) {
  return db.$transaction(async (tx) => {
    const s = await ownSession(tx, userId, sessionId, true);
    if (s.status !== "active") throw new DomainError(gamesErrors.GUESS_SESSION_ENDED, `This session has ended (${s.status}); start a new one.`);
    // The mystery player always counts as on the team (even if the roster dropped them mid-session).
    const onTeam = playerId === s.playerId || (await tx.player.findFirst({ where: { id: playerId, teamId: s.teamId, active: true }, select: { id: true } }));
    if (!onTeam) {
      throw new DomainError(sharedErrors.VALIDATION_ERROR, "Guess a player of this session's team.", [
        { path: "body.playerId", message: "Not an active player of this team" },
      ]);
    }
    if (s.guesses.includes(playerId)) {
      throw new DomainError(sharedErrors.VALIDATION_ERROR, "This player was already guessed in this session.", [
        { path: "body.playerId", message: "Already guessed" },
      ]);
    }
    const now = new Date();
    const guesses = [...s.guesses, playerId];
    const correct = playerId === s.playerId;
    const status = correct ? "won" : guesses.length >= MAX_GUESSES ? "lost" : "active";
    const ended = status !== "active";
    const cluesRevealed = ended ? cluesOf(s.answer).length : cluesShown(cluesOf(s.answer).length, guesses.length);
    await tx.guessSession.update({ where: { id: s.id }, data: { guesses, status, cluesRevealed, endedAt: ended ? now : null } });
    const granted = correct
      ? await award(tx, userId, { earnKind: "guess_player", ...GUESS_WIN_AWARD, grantKey: `guess_player:${utcDay(now)}`, targetId: s.id, createdAt: now })
      : null;
    const session = await toGuessSession(tx, { ...s, guesses, status, endedAt: ended ? now : null });
    return { session, correct, rep: { awarded: granted !== null, amount: granted ? GUESS_WIN_AWARD.amount : 0 } };
  }, txOptions());
}

// Daily spin (deprecated) ---------------------------------------------------------------------------------------

/** What a spin may land on; the server draws one with the crypto RNG. */
export const DAILY_SPIN_AMOUNTS = [5, 10, 15, 25] as const;

/**
 * POST /api/games/daily-spin/reward: once per user per UTC day (grant key daily_spin:<day>, held by award()'s
 * unique key, so concurrent spins grant once); a second spin that day → 409 ALREADY_EARNED.
 */
export async function spinDaily(db: Db, userId: string) {
  const now = new Date();
  const day = utcDay(now);
  const amount = DAILY_SPIN_AMOUNTS[randomInt(DAILY_SPIN_AMOUNTS.length)]!;
  const granted = await db.$transaction(
    (tx) => award(tx, userId, { earnKind: "daily_spin", amount, source: "serviceDirect", reason: "Daily spin", grantKey: `daily_spin:${day}`, createdAt: now }),
    txOptions(),
  );
  const nextSpinAt = addUtcDays(now, 1).toISOString();
  if (!granted) throw new DomainError(repErrors.ALREADY_EARNED, `You already spun today (${day} UTC); the next spin opens at ${nextSpinAt}.`);
  return { amount: granted.entry.amount, balance: granted.balance, day, nextSpinAt };
}

// Notifications (the cron routes; the statements are alert-writes.ts) -------------------------------------------

/** GET /api/cron/notifications-game-alerts. */
export const runGameAlerts = async (db: DbTx) => ({ type: "GAME_ALERT" as const, created: await insertGameAlerts(db, GAME_ALERT_WINDOW_HOURS) });

/** GET /api/cron/notifications-rating-prompts. */
export const runRatingPrompts = async (db: DbTx) => ({ type: "RATING" as const, created: await insertRatingPrompts(db, RATING_WINDOW_HOURS) });
