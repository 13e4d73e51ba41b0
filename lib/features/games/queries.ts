import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { decodeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { TEAM_SUMMARY_COLUMNS, toTeamSummary, type PlayerRow, type TeamSummaryRow } from "../../core/teams/service";
import { normalizeSport } from "../../core/teams/service";
import type { EventList, LineupStatus } from "./schemas";
import { raw } from "../../db/raw";

// Events are games read with everything an event card shows in one statement: league, both team summaries (as
// JSON from the teams module's TEAM_SUMMARY_COLUMNS), the caller's rating and whether the game can be rated.
// Games of the caller's teams are found per team through games(home_team_id, starts_at) and
// games(away_team_id, starts_at) (a UNION ALL, not an OR, so both indexes serve it), then filtered and ordered.

export interface EventRow {
  id: string;
  season: string | null;
  startsAt: Date;
  status: "scheduled" | "live" | "final" | "postponed" | "canceled";
  venue: string | null;
  homeScore: number | null;
  awayScore: number | null;
  overtime: boolean;
  leagueId: string;
  leagueSlug: string;
  leagueName: string;
  leagueShortName: string | null;
  leagueSport: string;
  home: TeamSummaryRow;
  away: TeamSummaryRow;
  hasLineup: boolean;
  canSeedLineup: boolean;
  ratedAt: Date | null;
  ratingUpdatedAt: Date | null;
  playersRated: number;
}

/** A player the lineup may hold: active and available (injured, suspended and unavailable players did not play). */
const LINEUP_ELIGIBLE = Prisma.sql`p.active AND p.availability = 'available'`;

/** Game `g`'s lineup exists. */
const HAS_LINEUP = Prisma.sql`EXISTS (SELECT 1 FROM game_lineup_slots ls WHERE ls.game_id = g.id)`;
/** Both rosters of game `g` have a player to seed its lineup from. */
const CAN_SEED_LINEUP = Prisma.sql`(EXISTS (SELECT 1 FROM players p WHERE p.team_id = g.home_team_id AND ${LINEUP_ELIGIBLE})
   AND EXISTS (SELECT 1 FROM players p WHERE p.team_id = g.away_team_id AND ${LINEUP_ELIGIBLE}))`;
/** isRatable in SQL, over a game aliased `g`: final, and its lineup exists or can be seeded. */
export const RATABLE_GAME = Prisma.sql`(g.status = 'final' AND (${HAS_LINEUP} OR ${CAN_SEED_LINEUP}))`;

const teamSummaryOf = (column: Prisma.Sql) => Prisma.sql`(SELECT to_jsonb(s) FROM (SELECT ${TEAM_SUMMARY_COLUMNS} FROM teams t WHERE t.id = ${column}) s)`;

const EVENT_COLUMNS = Prisma.sql`
  g.id, g.season, g.starts_at AS "startsAt", g.status::text AS status, g.venue,
  g.home_score AS "homeScore", g.away_score AS "awayScore", g.overtime,
  l.id AS "leagueId", l.slug AS "leagueSlug", l.name AS "leagueName", l.short_name AS "leagueShortName", l.sport AS "leagueSport",
  ${teamSummaryOf(Prisma.sql`g.home_team_id`)} AS home,
  ${teamSummaryOf(Prisma.sql`g.away_team_id`)} AS away,
  ${HAS_LINEUP} AS "hasLineup",
  ${CAN_SEED_LINEUP} AS "canSeedLineup",
  r.created_at AS "ratedAt", r.updated_at AS "ratingUpdatedAt",
  CASE WHEN r.id IS NULL THEN 0 ELSE (SELECT count(sc.score)::int FROM game_rating_scores sc WHERE sc.rating_id = r.id) END AS "playersRated"`;

/** Games with their league and `userId`'s rating; null: nobody's (myRating null). */
const eventFrom = (userId: string | null) => Prisma.sql`games g
  JOIN leagues l ON l.id = g.league_id
  LEFT JOIN game_ratings r ON ${userId === null ? Prisma.sql`false` : Prisma.sql`r.game_id = g.id AND r.user_id = ${userId}::uuid`}`;

/** Final, and its lineup exists or both rosters have players to seed it from. */
export const isRatable = (e: Pick<EventRow, "status" | "hasLineup" | "canSeedLineup">) => e.status === "final" && (e.hasLineup || e.canSeedLineup);

export function toEvent(e: EventRow) {
  return {
    id: e.id,
    league: { id: e.leagueId, slug: e.leagueSlug, name: e.leagueName, shortName: e.leagueShortName, sport: normalizeSport(e.leagueSport) },
    season: e.season,
    startsAt: e.startsAt.toISOString(),
    status: e.status,
    venue: e.venue,
    homeTeam: toTeamSummary(e.home),
    awayTeam: toTeamSummary(e.away),
    score: e.homeScore !== null && e.awayScore !== null ? { home: e.homeScore, away: e.awayScore, overtime: e.overtime } : null,
    ratable: isRatable(e),
    myRating:
      e.ratedAt && e.ratingUpdatedAt ? { playersRated: e.playersRated, ratedAt: e.ratedAt.toISOString(), updatedAt: e.ratingUpdatedAt.toISOString() } : null,
  };
}

/** The caller's teams: followed (team_follows) or joined (team_members), live teams only. */
const myTeamIds = (userId: string | Prisma.Sql) => Prisma.sql`
  SELECT f.team_id FROM team_follows f JOIN teams ft ON ft.id = f.team_id AND ft.archived_at IS NULL WHERE f.user_id = ${userId}::uuid
  UNION
  SELECT m.team_id FROM team_members m JOIN teams mt ON mt.id = m.team_id AND mt.archived_at IS NULL WHERE m.user_id = ${userId}::uuid`;

/** The caller's teams (those whose games are the caller's events) as a text[] column of a statement reading more. */
export const myTeamIdsColumn = (userId: string | Prisma.Sql) => Prisma.sql`ARRAY(${myTeamIds(userId)})`;

// The three lists: which statuses, and which order (every order ends on the id, so a page boundary never skips or
// repeats a game). A cursor's sort key is "<list>:<startsAt ms>", so it continues only the list it came from.
const LISTS: Record<EventList, { statuses: Prisma.Sql; desc: boolean }> = {
  upcoming: { statuses: Prisma.sql`g.status IN ('scheduled', 'live', 'postponed')`, desc: false },
  finished: { statuses: Prisma.sql`g.status = 'final'`, desc: true },
  all: { statuses: Prisma.sql`true`, desc: false },
};

function decodeEventCursor(cursor: string, list: EventList): { at: Date; id: string } {
  const { sortKey, id } = decodeCursor(cursor);
  const match = /^(upcoming|finished|all):(\d{1,15})$/.exec(sortKey);
  if (!match) throw invalidCursor();
  if (match[1] !== list) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `This cursor continues status=${match[1]}, not status=${list}; start again without it.`, [
      { path: "query.cursor", message: `Cursor belongs to status=${match[1]}` },
    ]);
  }
  const at = new Date(Number(match[2]));
  if (Number.isNaN(at.getTime())) throw invalidCursor();
  return { at, id };
}

/** One page of the caller's events in `list` (one statement). */
export async function readEventsPage(db: DbTx, userId: string, { list, cursor, limit }: { list: EventList; cursor?: string; limit: number }) {
  const { statuses, desc } = LISTS[list];
  const after = cursor ? decodeEventCursor(cursor, list) : undefined;
  const keyset = after
    ? desc
      ? Prisma.sql`AND (g.starts_at, g.id) < (${after.at}::timestamptz, ${after.id})`
      : Prisma.sql`AND (g.starts_at, g.id) > (${after.at}::timestamptz, ${after.id})`
    : Prisma.empty;
  const order = desc ? Prisma.sql`g.starts_at DESC, g.id DESC` : Prisma.sql`g.starts_at ASC, g.id ASC`;
  const rows = await raw(db).$queryRaw<EventRow[]>`
    WITH mine AS (${myTeamIds(userId)})
    SELECT ${EVENT_COLUMNS}
    FROM ${eventFrom(userId)}
    WHERE g.id IN (SELECT hg.id FROM mine JOIN games hg ON hg.home_team_id = mine.team_id
                   UNION ALL
                   SELECT ag.id FROM mine JOIN games ag ON ag.away_team_id = mine.team_id)
      AND ${statuses} ${keyset}
    ORDER BY ${order}
    LIMIT ${limit + 1}`;
  return keysetPage("events", rows, limit, (r) => encodeCursor(`${list}:${r.startsAt.getTime()}`, r.id), toEvent);
}

/** An event row as to_jsonb gives it back (dates as strings). */
type JsonEventRow = Omit<EventRow, "startsAt" | "ratedAt" | "ratingUpdatedAt"> & {
  startsAt: string;
  ratedAt: string | null;
  ratingUpdatedAt: string | null;
};
const fromJsonEventRow = (e: JsonEventRow): EventRow => ({
  ...e,
  startsAt: new Date(e.startsAt),
  ratedAt: e.ratedAt === null ? null : new Date(e.ratedAt),
  ratingUpdatedAt: e.ratingUpdatedAt === null ? null : new Date(e.ratingUpdatedAt),
});

/**
 * The next `count` games of each of `teamIds` that are not decided yet (the upcoming list's statuses), soonest first,
 * as nobody's events (no rating): the same for all of a team's fans, so the games module caches them per team
 * (nextGamesOf). One statement; a team with no such game maps to [].
 */
export async function upcomingGamesOfTeams(db: DbTx, teamIds: string[], count: number): Promise<Map<string, EventRow[]>> {
  const rows = await raw(db).$queryRaw<{ teamId: string; events: JsonEventRow[] }[]>`
    SELECT t.id AS "teamId", (
      SELECT COALESCE(jsonb_agg(x ORDER BY x."startsAt", x.id), '[]') FROM (
        SELECT ${EVENT_COLUMNS}
        FROM ${eventFrom(null)}
        WHERE g.id IN (SELECT hg.id FROM games hg WHERE hg.home_team_id = t.id
                       UNION ALL
                       SELECT ag.id FROM games ag WHERE ag.away_team_id = t.id)
          AND ${LISTS.upcoming.statuses}
        ORDER BY g.starts_at, g.id
        LIMIT ${count}) x) AS events
    FROM unnest(${teamIds}::text[]) AS t(id)`;
  return new Map(rows.map((r) => [r.teamId, r.events.map(fromJsonEventRow)]));
}

/** One game as an event row for the caller, or null when no game has this id. */
export async function readEventRow(db: DbTx, userId: string, gameId: string): Promise<EventRow | null> {
  const [row] = await raw(db).$queryRaw<EventRow[]>`SELECT ${EVENT_COLUMNS} FROM ${eventFrom(userId)} WHERE g.id = ${gameId}`;
  return row ?? null;
}

// Lineups ---------------------------------------------------------------------------------------------------

export interface LineupRow {
  slot: number;
  side: "home" | "away";
  teamId: string;
  playerId: string;
  name: string;
  jersey: string | null;
  position: string | null;
  photo: string | null;
}

const LINEUP_COLUMNS = Prisma.sql`
  s.slot, CASE WHEN s.team_id = g.home_team_id THEN 'home' ELSE 'away' END AS side, s.team_id AS "teamId",
  s.player_id AS "playerId", p.name, p.jersey, s.position, p.photo`;

export const toLineupPlayer = (r: LineupRow) => ({
  slot: r.slot,
  side: r.side,
  teamId: r.teamId,
  playerId: r.playerId,
  name: r.name,
  jersey: r.jersey,
  position: r.position,
  photo: r.photo,
});

/** The game's lineup in slot order (empty when none was seeded). */
export function readLineup(db: DbTx, gameId: string) {
  return raw(db).$queryRaw<LineupRow[]>`
    SELECT ${LINEUP_COLUMNS}
    FROM game_lineup_slots s JOIN players p ON p.id = s.player_id JOIN games g ON g.id = s.game_id
    WHERE s.game_id = ${gameId}
    ORDER BY s.slot`;
}

/** The caller's current scores of a game, in lineup slot order. */
export function readMyScores(db: DbTx, userId: string, gameId: string) {
  return raw(db).$queryRaw<{ playerId: string; score: number }[]>`
    SELECT sc.player_id AS "playerId", sc.score
    FROM game_ratings r
    JOIN game_rating_scores sc ON sc.rating_id = r.id
    LEFT JOIN game_lineup_slots s ON s.game_id = r.game_id AND s.player_id = sc.player_id
    WHERE r.user_id = ${userId}::uuid AND r.game_id = ${gameId} AND sc.score IS NOT NULL
    ORDER BY s.slot ASC NULLS LAST, sc.player_id`;
}

interface CrowdRow extends LineupRow {
  average: number | null;
  count: number;
  myScore: number | null;
  raters: number;
}

/**
 * The crowd's ratings of every lineup player in one aggregate: mean score rounded to 1 decimal (half away from zero,
 * PostgreSQL's numeric round), how many fans scored the player, the caller's own score, and how many fans rated
 * the game.
 */
export async function readCrowdRatings(db: DbTx, gameId: string, userId: string | null, lineupStatus: LineupStatus) {
  const rows = await raw(db).$queryRaw<CrowdRow[]>`
    SELECT ${LINEUP_COLUMNS},
           round(avg(sc.score), 1)::float8 AS average,
           count(sc.score)::int AS count,
           max(sc.score) FILTER (WHERE r.user_id = ${userId}::uuid)::int AS "myScore",
           (SELECT count(*)::int FROM game_ratings gr WHERE gr.game_id = ${gameId}) AS raters
    FROM game_lineup_slots s
    JOIN players p ON p.id = s.player_id
    JOIN games g ON g.id = s.game_id
    LEFT JOIN game_rating_scores sc ON sc.game_id = s.game_id AND sc.player_id = s.player_id
    LEFT JOIN game_ratings r ON r.id = sc.rating_id
    WHERE s.game_id = ${gameId}
    GROUP BY s.slot, s.team_id, s.player_id, s.position, p.name, p.jersey, p.photo, g.home_team_id
    ORDER BY s.slot`;
  return {
    gameId,
    lineupStatus,
    raters: rows[0]?.raters ?? 0,
    players: rows.map((r) => ({ ...toLineupPlayer(r), average: r.average, count: r.count, myScore: r.myScore })),
  };
}

/** A game's status and whether it has a lineup (none for no such game). */
export async function gameLineupState(db: DbTx, gameId: string) {
  const [game] = await raw(db).$queryRaw<{ id: string; status: string; hasLineup: boolean }[]>`
    SELECT g.id, g.status::text AS status, EXISTS (SELECT 1 FROM game_lineup_slots s WHERE s.game_id = g.id) AS "hasLineup"
    FROM games g WHERE g.id = ${gameId}`;
  return game;
}

/** Whether the game is final (null for no such game) and how many lineup slots it has. */
export async function lineupSeedState(db: DbTx, gameId: string) {
  const [row] = await raw(db).$queryRaw<{ final: boolean | null; slots: number }[]>`
    SELECT (SELECT status = 'final' FROM games WHERE id = ${gameId}) AS final,
           (SELECT count(*)::int FROM game_lineup_slots WHERE game_id = ${gameId}) AS slots`;
  return row;
}

// Guess the player ---------------------------------------------------------------------------------------------

export interface GuessSessionRow {
  id: string;
  userId: string;
  teamId: string;
  playerId: string;
  status: "active" | "won" | "lost";
  guesses: string[];
  startedAt: Date;
  endedAt: Date | null;
  team: TeamSummaryRow;
  answer: PlayerRow;
}

/** A guess session with its team's summary and its mystery player; `lock` takes its row lock (FOR UPDATE). */
export const readGuessSession = async (db: DbTx, sessionId: string, lock: boolean) =>
  (
    await raw(db).$queryRaw<GuessSessionRow[]>`
      SELECT gs.id, gs.user_id::text AS "userId", gs.team_id AS "teamId", gs.player_id AS "playerId", gs.status::text AS status,
             gs.guesses, gs.started_at AS "startedAt", gs.ended_at AS "endedAt",
             (SELECT to_jsonb(s) FROM (SELECT ${TEAM_SUMMARY_COLUMNS} FROM teams t WHERE t.id = gs.team_id) s) AS team,
             (SELECT to_jsonb(a) FROM (SELECT p.id, p.name, p.jersey, p.position, p.role, p.duty, p.photo, p.availability::text AS availability
                                       FROM players p WHERE p.id = gs.player_id) a) AS answer
      FROM guess_sessions gs WHERE gs.id = ${sessionId}::uuid
      ${lock ? Prisma.sql`FOR UPDATE OF gs` : Prisma.empty}`
  )[0];

/** The guessed players' names. */
export const guessPlayerNames = (db: DbTx, ids: string[]) =>
  raw(db).$queryRaw<{ id: string; name: string }[]>`SELECT id, name FROM players WHERE id = ANY(${ids}::text[])`;

/**
 * A live team with active players to guess from, one of the user's followed or joined teams when they have one,
 * chosen at random.
 */
export async function pickGuessTeam(db: DbTx, userId: string) {
  const [pick] = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT t.id FROM teams t
    WHERE t.archived_at IS NULL AND EXISTS (SELECT 1 FROM players p WHERE p.team_id = t.id AND p.active)
    ORDER BY (t.id IN (SELECT team_id FROM team_follows WHERE user_id = ${userId}::uuid
                       UNION SELECT team_id FROM team_members WHERE user_id = ${userId}::uuid)) DESC, random()
    LIMIT 1`;
  return pick;
}
