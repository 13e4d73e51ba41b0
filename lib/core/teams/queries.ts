import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { notFound } from "../../kernel/errors";
import { utcDay } from "../../time";
import { hasOvertimeLosses, normalizeSport, SPORT_PATTERN_SQL } from "./sport";
import { raw, type RawDb } from "../../db/raw";
import type { AuthUser } from "../../auth/users";
import type { TeamSearchQuery, TeamSearchSort } from "./schemas";

// Team reads are hand-written SQL: one round trip joins the team with its league, conference and division
// (Prisma's include would send one query per relation on these hot public routes). The serializers here are the
// only ones for a team: toTeam (full), toTeamSummary (embedded elsewhere), toTeamRecord, toRosterPlayer.

export interface TeamRow {
  id: string;
  slug: string;
  name: string;
  shortName: string | null;
  abbreviation: string | null;
  city: string | null;
  sport: string;
  logo: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  rank: number | null;
  fanCount: number;
  isOfficial: boolean;
  source: string;
  providerId: string | null;
  archivedAt: Date | null;
  foundedDate: Date | null;
  leagueId: string | null;
  leagueSlug: string | null;
  leagueName: string | null;
  leagueShortName: string | null;
  leagueSport: string | null;
  leagueSeason: string | null;
  leagueLogo: string | null;
  leaguePrimaryColor: string | null;
  leagueSecondaryColor: string | null;
  conferenceId: string | null;
  conferenceName: string | null;
  divisionId: string | null;
  divisionName: string | null;
}

export const TEAM_COLUMNS = Prisma.sql`
  t.id, t.slug, t.name, t.short_name AS "shortName", t.abbreviation, t.city, t.sport, t.logo,
  t.primary_color AS "primaryColor", t.secondary_color AS "secondaryColor", t.rank, t.fan_count AS "fanCount",
  t.is_official AS "isOfficial", t.source, t.provider_id AS "providerId", t.archived_at AS "archivedAt",
  t.founded_date AS "foundedDate",
  l.id AS "leagueId", l.slug AS "leagueSlug", l.name AS "leagueName", l.short_name AS "leagueShortName",
  l.sport AS "leagueSport", l.season AS "leagueSeason", l.logo AS "leagueLogo",
  l.primary_color AS "leaguePrimaryColor", l.secondary_color AS "leagueSecondaryColor",
  c.id AS "conferenceId", c.name AS "conferenceName", d.id AS "divisionId", d.name AS "divisionName"`;

export const TEAM_FROM = Prisma.sql`teams t
  LEFT JOIN leagues l ON l.id = t.league_id
  LEFT JOIN conferences c ON c.id = t.conference_id
  LEFT JOIN divisions d ON d.id = t.division_id`;

export function toTeam(t: TeamRow) {
  const sport = normalizeSport(t.sport);
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    shortName: t.shortName,
    abbreviation: t.abbreviation,
    city: t.city,
    sport,
    logo: t.logo,
    colors: { primary: t.primaryColor, secondary: t.secondaryColor },
    rank: t.rank,
    fanCount: t.fanCount,
    isOfficial: t.isOfficial,
    source: t.source,
    providerId: t.providerId,
    leagueInfo: t.leagueId
      ? {
          id: t.leagueId,
          slug: t.leagueSlug!,
          name: t.leagueName!,
          shortName: t.leagueShortName,
          sport: normalizeSport(t.leagueSport),
          season: t.leagueSeason,
          logo: t.leagueLogo,
          colors: { primary: t.leaguePrimaryColor, secondary: t.leagueSecondaryColor },
          href: `/api/leagues/${t.leagueSlug}/standings`,
        }
      : { id: "", slug: "", name: "", shortName: null, sport, season: null, logo: null, colors: { primary: null, secondary: null }, href: "" },
    conference: t.conferenceId ? { id: t.conferenceId, name: t.conferenceName! } : null,
    division: t.divisionId ? { id: t.divisionId, name: t.divisionName! } : null,
  };
}

/** The short form of a team other resources embed (standings rows, favorite teams, …). */
export const TEAM_SUMMARY_SELECT = {
  id: true,
  slug: true,
  name: true,
  shortName: true,
  abbreviation: true,
  logo: true,
} as const;

export const TEAM_SUMMARY_COLUMNS = Prisma.sql`t.id, t.slug, t.name, t.short_name AS "shortName", t.abbreviation, t.logo`;

export interface TeamSummaryRow {
  id: string;
  slug: string;
  name: string;
  shortName: string | null;
  abbreviation: string | null;
  logo: string | null;
}

/** The summaries of the teams `ids` (those that exist), in one statement. */
export const teamSummaryRows = (db: RawDb | DbTx, ids: string[]) =>
  raw(db).$queryRaw<TeamSummaryRow[]>`SELECT ${TEAM_SUMMARY_COLUMNS} FROM teams t WHERE t.id = ANY(${ids}::text[])`;

export const toTeamSummary = (t: TeamSummaryRow) => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  shortName: t.shortName,
  abbreviation: t.abbreviation,
  logo: t.logo,
});

export const currentSeason = async (db: Db) =>
  (await raw(db).$queryRaw<{ season: string | null }[]>`SELECT max(season) AS season FROM leagues WHERE archived_at IS NULL`)[0]!.season;

/** Compares normalised values, so "Hockey " matches hockey and unusable values match other (t = teams). */
export function sportFilter(value: string): Prisma.Sql {
  const sport = normalizeSport(value);
  return sport === "other" ? Prisma.sql`NOT (lower(btrim(t.sport)) ~ ${SPORT_PATTERN_SQL})` : Prisma.sql`lower(btrim(t.sport)) = ${sport}`;
}

/** League by id or slug (l = leagues, joined by TEAM_FROM). */
export function leagueFilter(value: string): Prisma.Sql {
  return Prisma.sql`(l.id = ${value} OR l.slug = ${value.toLowerCase()})`;
}

// Team path parameters take an id or a slug, id tried first (as team detail does). Both probes use unique
// indexes (teams_pkey, teams_slug_key).

export interface TeamRef {
  id: string;
  archived: boolean;
}

/** The team an id or slug names, archived or not; null when none does. */
export async function findTeamRef(db: DbTx, idOrSlug: string): Promise<TeamRef | null> {
  const [row] = await raw(db).$queryRaw<{ id: string; archivedAt: Date | null }[]>`
    SELECT t.id, t.archived_at AS "archivedAt" FROM teams t
    WHERE t.id = ${idOrSlug} OR t.slug = ${idOrSlug.toLowerCase()}
    ORDER BY (t.id = ${idOrSlug}) DESC LIMIT 1`;
  return row ? { id: row.id, archived: row.archivedAt !== null } : null;
}

/** The id of a live team; missing or archived → 404 NOT_FOUND. */
export async function liveTeamIdOrThrow(db: DbTx, idOrSlug: string): Promise<string> {
  const ref = await findTeamRef(db, idOrSlug);
  if (!ref || ref.archived) throw notFound("Team");
  return ref.id;
}

/** The full row (league, conference, division joined) of a live team; missing or archived → 404 NOT_FOUND. */
export async function liveTeamRowOrThrow(db: DbTx, idOrSlug: string): Promise<TeamRow> {
  const [row] = await raw(db).$queryRaw<TeamRow[]>`
    SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM}
    WHERE t.id = ${idOrSlug} OR t.slug = ${idOrSlug.toLowerCase()}
    ORDER BY (t.id = ${idOrSlug}) DESC LIMIT 1`;
  if (!row || row.archivedAt) throw notFound("Team");
  return row;
}

export interface RecordCounts {
  wins: number;
  losses: number;
  ties: number;
  overtimeDefeats: number;
  played: number;
}

/** One query reads the team, its league links and its record over the finished games of the league's season. */
export async function readPublicDetail(db: RawDb | DbTx, idOrSlug: string) {
  const [t] = await raw(db).$queryRaw<(TeamRow & RecordCounts)[]>`
    SELECT ${TEAM_COLUMNS}, r.*
    FROM ${TEAM_FROM}
    LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE my > their)::int AS wins,
             count(*) FILTER (WHERE my < their AND NOT overtime)::int AS losses,
             count(*) FILTER (WHERE my < their AND overtime)::int AS "overtimeDefeats",
             count(*) FILTER (WHERE my = their)::int AS ties,
             count(*)::int AS played
      FROM (
        SELECT CASE WHEN g.home_team_id = t.id THEN g.home_score ELSE g.away_score END AS my,
               CASE WHEN g.home_team_id = t.id THEN g.away_score ELSE g.home_score END AS their,
               g.overtime
        FROM games g
        WHERE (g.home_team_id = t.id OR g.away_team_id = t.id)
          AND g.status = 'final' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL
          AND (l.season IS NULL OR g.season = l.season)
      ) x
    ) r ON true
    WHERE t.id = ${idOrSlug} OR t.slug = ${idOrSlug.toLowerCase()}
    ORDER BY (t.id = ${idOrSlug}) DESC
    LIMIT 1`;
  if (!t || t.archivedAt) return null;
  return {
    ...toTeam(t),
    teamRecord: toTeamRecord(t, recordSport(t.leagueSport, t.sport)),
    foundedDate: t.foundedDate ? utcDay(t.foundedDate) : null,
  };
}

/** The sport whose scoring rules a record follows: the league's, else the team's own. */
function recordSport(leagueSport: string | null, teamSport: string): string {
  const fromLeague = normalizeSport(leagueSport);
  return fromLeague !== "other" ? fromLeague : normalizeSport(teamSport);
}

/** Only sports that keep an overtime-loss column (hockey) count a defeat after regulation apart; elsewhere it is a loss. */
export function toTeamRecord(c: RecordCounts, sport: string) {
  const otl = hasOvertimeLosses(sport) ? c.overtimeDefeats : 0;
  const losses = c.losses + c.overtimeDefeats - otl;
  const parts = [c.wins, losses];
  if (c.ties) parts.push(c.ties);
  if (otl) parts.push(otl);
  return { gamesPlayed: c.played, wins: c.wins, losses, ties: c.ties, overtimeLosses: otl, summary: parts.join("-") };
}

export interface PlayerRow {
  id: string;
  name: string;
  jersey: string | null;
  position: string | null;
  role: string | null;
  duty: string | null;
  photo: string | null;
  availability: "available" | "injured" | "suspended" | "unavailable";
}

export function toRosterPlayer(p: PlayerRow) {
  return {
    id: p.id,
    name: p.name,
    jersey: p.jersey,
    position: p.position,
    role: p.role,
    duty: p.duty,
    // Keys are left out, not nulled: no art → no photo; available → no availability.
    ...(p.photo ? { photo: p.photo } : {}),
    ...(p.availability !== "available" ? { availability: p.availability } : {}),
  };
}

/** Active players of a team, numeric jerseys by number, then other or missing jerseys, then name, then id. */
export function activePlayersOf(db: DbTx, teamId: string) {
  return raw(db).$queryRaw<PlayerRow[]>`
    SELECT p.id, p.name, p.jersey, p.position, p.role, p.duty, p.photo, p.availability::text AS availability
    FROM players p
    WHERE p.team_id = ${teamId} AND p.active
    ORDER BY CASE WHEN btrim(p.jersey) ~ '^[0-9]{1,9}$' THEN btrim(p.jersey)::int END ASC NULLS LAST,
             p.jersey ASC NULLS LAST, p.name ASC, p.id ASC`;
}

/** Whether the user may author posts as the team: staff (admin role) or the team's staff accounts (team_staff). */
export async function canPostAsTeam(db: RawDb | DbTx, viewer: Pick<AuthUser, "id" | "isAdmin">, teamId: string): Promise<boolean> {
  if (viewer.isAdmin) return true;
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM team_staff WHERE user_id = ${viewer.id}::uuid AND team_id = ${teamId}`;
  return rows.length > 0;
}

// A team as a fan's profile lists it (lib/core/users, lib/core/follows): the summary with its sport, colours and state.

const FAVORITE_TEAM_SELECT = {
  ...TEAM_SUMMARY_SELECT,
  sport: true,
  primaryColor: true,
  secondaryColor: true,
  isOfficial: true,
  archivedAt: true,
} as const;

type FavoriteTeamRow = TeamSummaryRow & {
  sport: string;
  primaryColor: string | null;
  secondaryColor: string | null;
  isOfficial: boolean;
  archivedAt: Date | null;
};

const toFavoriteTeam = (t: FavoriteTeamRow) => ({
  ...toTeamSummary(t),
  sport: normalizeSport(t.sport),
  colors: { primary: t.primaryColor, secondary: t.secondaryColor },
  isOfficial: t.isOfficial,
  archived: t.archivedAt !== null,
});

/** The teams on a profile, in display order, with their summaries (null for a team row that is gone). */
export async function favoriteTeamsOf(db: DbTx, ids: string[]) {
  const teams = ids.length ? await db.team.findMany({ where: { id: { in: ids } }, select: FAVORITE_TEAM_SELECT }) : [];
  const byId = new Map(teams.map((t) => [t.id, t]));
  return ids.map((id) => {
    const team = byId.get(id);
    return { id, team: team ? toFavoriteTeam(team) : null };
  });
}

// Lists (service.ts: findTeamBySlug, listTeams, searchTeams, listFollowedTeams) ---------------------------------

/** The team a slug names (case-insensitive), archived or not. */
export async function teamRowBySlug(db: RawDb | DbTx, slug: string): Promise<TeamRow | undefined> {
  const [t] = await raw(db).$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE t.slug = ${slug.toLowerCase()}`;
  return t;
}

/** The filters of GET /api/teams: a sport, a league. */
type TeamListFilters = { sport?: string; league?: string };

/** Live teams, of the sport and league asked for. */
function listWhere(f: TeamListFilters): Prisma.Sql {
  const filters = [Prisma.sql`t.archived_at IS NULL`];
  if (f.sport) filters.push(sportFilter(f.sport));
  if (f.league) filters.push(leagueFilter(f.league));
  return Prisma.join(filters, " AND ");
}

/** Every live team matching the filters, by name, then id. */
export const allTeamRows = (db: RawDb | DbTx, f: TeamListFilters) =>
  raw(db).$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE ${listWhere(f)} ORDER BY t.name, t.id`;

/** A page of those, after the keyset (name, id), with one row more than `limit` (whether another page follows). */
export function teamRowsPage(db: RawDb | DbTx, f: TeamListFilters, after: { sortKey: string; id: string } | undefined, limit: number) {
  const where = listWhere(f);
  const keyset = after ? Prisma.sql`AND (t.name, t.id) > (${after.sortKey}, ${after.id})` : Prisma.empty;
  return raw(db).$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE ${where} ${keyset} ORDER BY t.name, t.id LIMIT ${limit + 1}`;
}

/** How many live teams match the filters. */
export async function countTeams(db: RawDb | DbTx, f: TeamListFilters): Promise<number> {
  const [{ total }] = await raw(db).$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM ${TEAM_FROM} WHERE ${listWhere(f)}`;
  return total;
}

/** Where a search page starts: after the last team of the previous one, in its sort (service.ts: the search's orders). */
export type TeamSearchAfter =
  { sort: "name"; name: string; id: string } | { sort: "rank"; rank: number | null; id: string } | { sort: "fans"; fans: number; id: string };

function keysetOf(after: TeamSearchAfter): Prisma.Sql {
  switch (after.sort) {
    case "name":
      return Prisma.sql`(t.name, t.id) > (${after.name}, ${after.id})`;
    case "fans":
      // Written so `fan_count <= $1` is an index condition on teams(fan_count DESC, id), scanned in order.
      return Prisma.sql`(t.fan_count <= ${after.fans}::int AND (t.fan_count < ${after.fans}::int OR t.id > ${after.id}))`;
    case "rank":
      // After a ranked team: the rest of the ranked teams, then every unranked one (NULLs sort last).
      return after.rank === null
        ? Prisma.sql`(t.rank IS NULL AND t.id > ${after.id})`
        : Prisma.sql`((t.rank, t.id) > (${after.rank}::int, ${after.id}) OR t.rank IS NULL)`;
  }
}

const ORDER_BY: Record<TeamSearchSort, Prisma.Sql> = {
  name: Prisma.sql`t.name ASC, t.id ASC`,
  rank: Prisma.sql`t.rank ASC NULLS LAST, t.id ASC`,
  fans: Prisma.sql`t.fan_count DESC, t.id ASC`,
};

/** LIKE pattern matching `text` literally anywhere (%, _ and \ escaped; backslash is LIKE's default escape). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** A page of GET /api/teams/search: live teams matching the query, after `after`, in its sort, one row more than its limit. */
export function searchTeamRows(db: DbTx, q: TeamSearchQuery, after: TeamSearchAfter | undefined) {
  const filters = [Prisma.sql`t.archived_at IS NULL`];
  if (q.q !== undefined) {
    const p = containsPattern(q.q);
    filters.push(Prisma.sql`(t.name ILIKE ${p} OR t.short_name ILIKE ${p} OR t.city ILIKE ${p} OR t.abbreviation ILIKE ${p})`);
  }
  if (q.sport !== undefined) filters.push(sportFilter(q.sport));
  if (q.league !== undefined) filters.push(leagueFilter(q.league));
  if (after !== undefined) filters.push(keysetOf(after));

  return raw(db).$queryRaw<TeamRow[]>`
    SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM}
    WHERE ${Prisma.join(filters, " AND ")}
    ORDER BY ${ORDER_BY[q.sort]}
    LIMIT ${q.limit + 1}`;
}

/** A page of the user's followed live teams, newest follow first, after the keyset (created_at, team_id), one row more than `limit`. */
export function followedTeamRows(db: DbTx, userId: string, after: { at: Date; id: string } | undefined, limit: number) {
  const keyset = after ? Prisma.sql`AND (f.created_at, f.team_id) < (${after.at}::timestamptz, ${after.id})` : Prisma.empty;
  return raw(db).$queryRaw<(TeamRow & { followedAt: Date })[]>`
    SELECT ${TEAM_COLUMNS}, f.created_at AS "followedAt"
    FROM ${TEAM_FROM} JOIN team_follows f ON f.team_id = t.id
    WHERE f.user_id = ${userId}::uuid AND t.archived_at IS NULL ${keyset}
    ORDER BY f.created_at DESC, f.team_id DESC
    LIMIT ${limit + 1}`;
}

// Head to head (service.ts: getHeadToHead): finished games with scores between teams `a` and `b`, all seasons. -----

/** Games played, and `a`'s wins, losses and ties. */
export async function headToHeadRecord(db: DbTx, a: string, b: string) {
  const [counts] = await raw(db).$queryRaw<{ gamesPlayed: number; wins: number; losses: number; ties: number }[]>`
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
      ) x`;
  return counts!;
}

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

/** The last `take` of those games, newest first. */
export function recentMeetings(db: DbTx, a: string, b: string, take: number) {
  return raw(db).$queryRaw<MeetingRow[]>`
      SELECT g.id, g.starts_at AS "startsAt", g.season, g.venue, g.home_team_id AS "homeTeamId", g.away_team_id AS "awayTeamId",
             g.home_score AS "homeScore", g.away_score AS "awayScore", g.overtime
      FROM games g
      WHERE ((g.home_team_id = ${a} AND g.away_team_id = ${b}) OR (g.home_team_id = ${b} AND g.away_team_id = ${a}))
        AND g.status = 'final' AND g.home_score IS NOT NULL AND g.away_score IS NOT NULL
      ORDER BY g.starts_at DESC, g.id DESC
      LIMIT ${take}`;
}
