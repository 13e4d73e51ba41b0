import type { Db } from "../../db/client";
import { TEAM_SUMMARY_COLUMNS, toTeamSummary, type TeamSummaryRow } from "../teams/service";
import { normalizeSport } from "../teams/service";
import { buildStandings, type FinishedGame, type Standings, type StandingsTeam } from "./standings";
import { raw } from "../../db/raw";

// League reads. Every query runs on an index: leagues by primary key or the unique slug; teams by
// teams(league_id, name, id); games by games(league_id, status, starts_at); conferences and divisions by
// their league_id indexes. The league list and the sports catalog scan the leagues table, which holds a few
// dozen rows (no index on archived_at or display_order is worth having at that size).

export interface LeagueRow {
  id: string;
  slug: string;
  name: string;
  shortName: string | null;
  sport: string;
  season: string | null;
  logo: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  displayOrder: number;
  teamCount: number;
}

/** Non-archived leagues (displayOrder, name, id) with their conferences and divisions (name, id). */
export async function leagueTree(db: Db) {
  const [leagues, conferences, divisions] = await Promise.all([
    raw(db).$queryRaw<LeagueRow[]>`
      SELECT l.id, l.slug, l.name, l.short_name AS "shortName", l.sport, l.season, l.logo,
             l.primary_color AS "primaryColor", l.secondary_color AS "secondaryColor", l.display_order AS "displayOrder",
             (SELECT count(*)::int FROM teams t WHERE t.league_id = l.id AND t.archived_at IS NULL) AS "teamCount"
      FROM leagues l
      WHERE l.archived_at IS NULL
      ORDER BY l.display_order, l.name, l.id`,
    raw(db).$queryRaw<{ id: string; leagueId: string; name: string }[]>`
      SELECT c.id, c.league_id AS "leagueId", c.name
      FROM conferences c JOIN leagues l ON l.id = c.league_id
      WHERE l.archived_at IS NULL
      ORDER BY c.name, c.id`,
    raw(db).$queryRaw<{ id: string; leagueId: string; conferenceId: string | null; name: string }[]>`
      SELECT d.id, d.league_id AS "leagueId", d.conference_id AS "conferenceId", d.name
      FROM divisions d JOIN leagues l ON l.id = d.league_id
      WHERE l.archived_at IS NULL
      ORDER BY d.name, d.id`,
  ]);
  return { leagues, conferences, divisions };
}

interface StandingsTeamRow extends TeamSummaryRow {
  conferenceId: string | null;
  conferenceName: string | null;
  divisionId: string | null;
  divisionName: string | null;
}

/** The league by internal id (exact), else by slug (slugs are stored lower-case); archived or missing → null. */
async function findLeague(db: Db, idOrSlug: string) {
  const [league] = await raw(db).$queryRaw<{ id: string; name: string; sport: string; season: string | null; archivedAt: Date | null }[]>`
    SELECT id, name, sport, season, archived_at AS "archivedAt"
    FROM leagues
    WHERE id = ${idOrSlug} OR slug = ${idOrSlug.toLowerCase()}
    ORDER BY (id = ${idOrSlug}) DESC
    LIMIT 1`;
  return league && !league.archivedAt ? league : null;
}

/** Reads a league's teams and its finished, scored games of the current season (all seasons when it has none). */
export async function readStandings(db: Db, idOrSlug: string): Promise<Standings | null> {
  const league = await findLeague(db, idOrSlug);
  if (!league) return null;
  const [teams, games] = await Promise.all([
    raw(db).$queryRaw<StandingsTeamRow[]>`
      SELECT ${TEAM_SUMMARY_COLUMNS},
             c.id AS "conferenceId", c.name AS "conferenceName", d.id AS "divisionId", d.name AS "divisionName"
      FROM teams t
      LEFT JOIN divisions d ON d.id = t.division_id
      LEFT JOIN conferences c ON c.id = coalesce(t.conference_id, d.conference_id)
      WHERE t.league_id = ${league.id} AND t.archived_at IS NULL`,
    db.game.findMany({
      where: {
        leagueId: league.id,
        status: "final",
        homeScore: { not: null },
        awayScore: { not: null },
        ...(league.season !== null ? { season: league.season } : {}),
      },
      select: { id: true, homeTeamId: true, awayTeamId: true, homeScore: true, awayScore: true, overtime: true, startsAt: true },
    }),
  ]);
  return buildStandings({
    league: { id: league.id, name: league.name, sport: normalizeSport(league.sport) },
    teams: teams.map((t): StandingsTeam => ({
      ...toTeamSummary(t),
      conference: t.conferenceId ? { id: t.conferenceId, name: t.conferenceName! } : null,
      division: t.divisionId ? { id: t.divisionId, name: t.divisionName! } : null,
    })),
    games: games as FinishedGame[],
  });
}
