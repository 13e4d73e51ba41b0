import type { DbTx } from "../db/client";
import { DomainError } from "../http/errors";
import { liveTeamRowOrThrow } from "./lookup";
import { toTeam } from "./service";

// GET /api/teams/{id}/head-to-head?opponentId=: the series between two teams over finished games with scores
// (all seasons), from {id}'s side. Reads use games(home_team_id, starts_at) and games(away_team_id, starts_at).

const RECENT_MEETINGS = 5;

const sameTeam = () =>
  new DomainError("VALIDATION_ERROR", "opponentId must name a different team than the one in the path.", [
    { path: "query.opponentId", message: "Must be a different team than {id}" },
  ]);

interface MeetingRow {
  id: string;
  startsAt: Date;
  season: string | null;
  venue: string | null;
  homeTeamId: string;
  awayTeamId: string;
  homeScore: number;
  awayScore: number;
  overtime: boolean;
}

export async function getHeadToHead(db: DbTx, idOrSlug: string, opponentIdOrSlug: string) {
  // The same text names the same team (before any lookup); an id and a slug of one team are caught after it.
  if (idOrSlug === opponentIdOrSlug) throw sameTeam();
  const [mine, theirs] = await Promise.all([liveTeamRowOrThrow(db, idOrSlug), liveTeamRowOrThrow(db, opponentIdOrSlug)]);
  if (mine.id === theirs.id) throw sameTeam();
  const a = mine.id;
  const b = theirs.id;

  const [[counts], recent] = await Promise.all([
    db.$queryRaw<{ gamesPlayed: number; wins: number; losses: number; ties: number }[]>`
      SELECT count(*)::int AS "gamesPlayed",
             count(*) FILTER (WHERE my > their)::int AS wins,
             count(*) FILTER (WHERE my < their)::int AS losses,
             count(*) FILTER (WHERE my = their)::int AS ties
      FROM (
        SELECT CASE WHEN g.home_team_id = ${a} THEN g.home_score ELSE g.away_score END AS my,
               CASE WHEN g.home_team_id = ${a} THEN g.away_score ELSE g.home_score END AS their
        FROM games g
        WHERE ((g.home_team_id = ${a} AND g.away_team_id = ${b}) OR (g.home_team_id = ${b} AND g.away_team_id = ${a}))
          AND g.status = 'final' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL
      ) x`,
    db.$queryRaw<MeetingRow[]>`
      SELECT g.id, g.starts_at AS "startsAt", g.season, g.venue, g.home_team_id AS "homeTeamId", g.away_team_id AS "awayTeamId",
             g.home_score AS "homeScore", g.away_score AS "awayScore", g.overtime
      FROM games g
      WHERE ((g.home_team_id = ${a} AND g.away_team_id = ${b}) OR (g.home_team_id = ${b} AND g.away_team_id = ${a}))
        AND g.status = 'final' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL
      ORDER BY g.starts_at DESC, g.id DESC
      LIMIT ${RECENT_MEETINGS}`,
  ]);

  return {
    team: toTeam(mine),
    opponent: toTeam(theirs),
    record: counts!,
    recentMeetings: recent.map((g) => {
      const winnerId = g.homeScore > g.awayScore ? g.homeTeamId : g.awayScore > g.homeScore ? g.awayTeamId : null;
      return {
        gameId: g.id,
        playedAt: g.startsAt.toISOString(),
        season: g.season,
        venue: g.venue,
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        homeScore: g.homeScore,
        awayScore: g.awayScore,
        overtime: g.overtime,
        winnerId,
        result: winnerId === null ? ("tie" as const) : winnerId === a ? ("win" as const) : ("loss" as const),
      };
    }),
  };
}
