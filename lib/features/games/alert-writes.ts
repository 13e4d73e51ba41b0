import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";
import { insertNotifications } from "../../core/notifications/service";
import type { NotificationType } from "../../core/notifications/schemas";
import { SERVER_AWARDS } from "../../core/rep/service";
import { TEAM_SUMMARY_COLUMNS } from "../../core/teams/service";
import { RATABLE_GAME } from "./queries";

// The games' notifications, written by cron routes (service.ts runGameAlerts, runRatingPrompts) to the fans who
// follow either team: a game about to start (GAME_ALERT) and a finished game to rate (RATING). One INSERT … SELECT
// each through lib/core/notifications/writes.ts, idempotent through UNIQUE (user_id, cause_key): safe to run twice or
// concurrently.

const teamJson = (column: Prisma.Sql) => Prisma.sql`(SELECT to_jsonb(s) FROM (SELECT ${TEAM_SUMMARY_COLUMNS} FROM teams t WHERE t.id = ${column}) s)`;
const iso = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const matchup = Prisma.sql`coalesce(awt.short_name, awt.name) || ' at ' || coalesce(ht.short_name, ht.name)`;
const GAME_FIELDS = Prisma.sql`'gameId', g.id, 'leagueId', g.league_id, 'startsAt', ${iso(Prisma.sql`g.starts_at`)},
  'homeTeam', ${teamJson(Prisma.sql`g.home_team_id`)}, 'awayTeam', ${teamJson(Prisma.sql`g.away_team_id`)},
  'href', '/api/events/' || g.id`;

/**
 * `due` (games with id, home_team_id, away_team_id, payload) → one notification of `type` per follower of either team
 * who has notify_teams on (and passes `extra`, a WHERE over f.user_id and d.id). A follow counts even when the team was
 * archived since: the game is still the fan's.
 */
function insertForFollowers(db: DbTx, type: NotificationType, causePrefix: string, due: Prisma.Sql, extra: Prisma.Sql) {
  return insertNotifications(
    raw(db),
    {
      type,
      recipient: Prisma.sql`fans.user_id`,
      cause: Prisma.sql`${causePrefix} || d.id`,
      actor: null,
      payload: Prisma.sql`d.payload`,
      from: Prisma.sql`FROM fans JOIN due d ON d.id = fans.game_id JOIN users u ON u.id = fans.user_id AND u.notify_teams`,
    },
    Prisma.sql`
    WITH due AS (${due}),
    fans AS (
      SELECT f.user_id, d.id AS game_id FROM due d JOIN team_follows f ON f.team_id = d.home_team_id ${extra}
      UNION
      SELECT f.user_id, d.id AS game_id FROM due d JOIN team_follows f ON f.team_id = d.away_team_id ${extra}
    )`,
  );
}

const DUE_COLUMNS = Prisma.sql`g.id, g.home_team_id, g.away_team_id`;
const DUE_FROM = Prisma.sql`games g JOIN teams ht ON ht.id = g.home_team_id JOIN teams awt ON awt.id = g.away_team_id`;

/** GAME_ALERT for scheduled games starting within the next `hours`. */
export function insertGameAlerts(db: DbTx, hours: number) {
  return insertForFollowers(
    db,
    "GAME_ALERT",
    "game_alert:",
    Prisma.sql`
      SELECT ${DUE_COLUMNS}, jsonb_build_object(${GAME_FIELDS}, 'venue', g.venue,
        'title', ${matchup}, 'body', 'Starts within ' || ${hours}::int || ' hours' || coalesce(' at ' || g.venue, '') || '.') AS payload
      FROM ${DUE_FROM}
      WHERE g.status = 'scheduled' AND g.starts_at > now() AND g.starts_at <= now() + make_interval(hours => ${hours}::int)`,
    Prisma.empty,
  );
}

/** RATING for ratable games (games module's rule) that started within the last `hours`, to fans who have not rated them. */
export function insertRatingPrompts(db: DbTx, hours: number) {
  const award = SERVER_AWARDS.game_rating.amount;
  return insertForFollowers(
    db,
    "RATING",
    "rating:",
    Prisma.sql`
      SELECT ${DUE_COLUMNS}, jsonb_build_object(${GAME_FIELDS},
        'score', CASE WHEN g.home_score IS NULL OR g.away_score IS NULL THEN NULL
                      ELSE jsonb_build_object('home', g.home_score, 'away', g.away_score) END,
        'repAward', ${award}::int,
        'title', 'Rate the players: ' || ${matchup},
        'body', 'The game is over. Rate the players and earn ' || ${award}::int || ' Rep.') AS payload
      FROM ${DUE_FROM}
      WHERE g.status = 'final' AND g.starts_at > now() - make_interval(hours => ${hours}::int) AND g.starts_at <= now()
        AND ${RATABLE_GAME}`,
    Prisma.sql`WHERE NOT EXISTS (SELECT 1 FROM game_ratings r WHERE r.user_id = f.user_id AND r.game_id = d.id)`,
  );
}
