import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import type { AuthUser } from "../auth/users";
import { env } from "../env";
import { notFound } from "../http/errors";
import { decodeCursor, encodeCursor } from "../http/cursor";
import { hasOvertimeLosses, normalizeSport, SPORT_PATTERN_SQL } from "./sport";
import { DEFAULT_TEAM_PAGE, type TeamsQuery } from "./schemas";

// Team reads are hand-written SQL: one round trip joins the team with its league, conference and division
// (Prisma's include would send one query per relation on these hot public routes).

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

const currentSeason = async (db: Db) =>
  (await db.$queryRaw<{ season: string | null }[]>`SELECT max(season) AS season FROM leagues WHERE archived_at IS NULL`)[0]!.season;

export async function findTeamBySlug(db: Db, slug: string) {
  const [t] = await db.$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE t.slug = ${slug.toLowerCase()}`;
  if (!t || t.archivedAt) throw notFound("Team");
  return { team: toTeam(t) };
}

/** Compares normalised values, so "Hockey " matches hockey and unusable values match other (t = teams). */
export function sportFilter(value: string): Prisma.Sql {
  const sport = normalizeSport(value);
  return sport === "other"
    ? Prisma.sql`NOT (lower(btrim(t.sport)) ~ ${SPORT_PATTERN_SQL})`
    : Prisma.sql`lower(btrim(t.sport)) = ${sport}`;
}

/** League by id or slug (l = leagues, joined by TEAM_FROM). */
export function leagueFilter(value: string): Prisma.Sql {
  return Prisma.sql`(l.id = ${value} OR l.slug = ${value.toLowerCase()})`;
}

/** GET /api/teams without slug: the full list, or a filtered/paginated page with total. Ordered by name, then id. */
export async function listTeams(db: Db, q: Omit<TeamsQuery, "slug">) {
  const filters = [Prisma.sql`t.archived_at IS NULL`];
  if (q.sport) filters.push(sportFilter(q.sport));
  if (q.league) filters.push(leagueFilter(q.league));
  const where = Prisma.join(filters, " AND ");
  const paginated = q.cursor !== undefined || q.limit !== undefined;
  const filtered = q.sport !== undefined || q.league !== undefined;

  if (!paginated && !filtered) {
    const [teams, season] = await Promise.all([
      db.$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE ${where} ORDER BY t.name, t.id`,
      currentSeason(db),
    ]);
    return { teams: teams.map(toTeam), season };
  }

  const limit = q.limit ?? DEFAULT_TEAM_PAGE;
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const keyset = after ? Prisma.sql`AND (t.name, t.id) > (${after.sortKey}, ${after.id})` : Prisma.empty;
  const [rows, [{ total }], season] = await Promise.all([
    db.$queryRaw<TeamRow[]>`SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM} WHERE ${where} ${keyset} ORDER BY t.name, t.id LIMIT ${limit + 1}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM ${TEAM_FROM} WHERE ${where}`,
    currentSeason(db),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    teams: page.map(toTeam),
    season,
    total,
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.name, last.id) } : {}),
  };
}

interface RecordCounts {
  wins: number;
  losses: number;
  ties: number;
  overtimeDefeats: number;
  played: number;
}

/** Id first, then slug (case-insensitive); archived or missing → 404. */
export async function getTeamDetail(db: Db, idOrSlug: string, viewer: AuthUser | null) {
  const team = await cachedPublicDetail(db, idOrSlug);
  if (!team) throw notFound("Team");
  const staff =
    viewer && !viewer.isAdmin
      ? await db.teamStaff.findUnique({ where: { userId_teamId: { userId: viewer.id, teamId: team.id } }, select: { teamId: true } })
      : null;
  return { team: { ...team, viewerCanPostAsTeam: viewer ? viewer.isAdmin || staff !== null : false } };
}

type PublicDetail = Awaited<ReturnType<typeof readPublicDetail>>;

// Team detail is the same for every viewer but viewerCanPostAsTeam, and changes only when a sync runs, so it
// is kept briefly per process (the spec asks clients to tolerate a short delay after syncs). Caching the
// promise also folds concurrent misses into one query.
// On globalThis: Next bundles route handlers and server actions apart, and a sync or archive run from the staff
// console must clear the same cache the API reads.
const detailCache = ((globalThis as unknown as { __teamDetailCache?: Map<string, { expires: number; value: Promise<PublicDetail> }> }).__teamDetailCache ??=
  new Map());

function cachedPublicDetail(db: Db, idOrSlug: string): Promise<PublicDetail> {
  const ttl = env().TEAM_CACHE_TTL_MS;
  if (ttl <= 0) return readPublicDetail(db, idOrSlug);
  const now = Date.now();
  const hit = detailCache.get(idOrSlug);
  if (hit && hit.expires > now) return hit.value;
  if (detailCache.size >= 1_000) detailCache.clear();
  const value = readPublicDetail(db, idOrSlug);
  detailCache.set(idOrSlug, { expires: now + ttl, value });
  value.catch(() => detailCache.delete(idOrSlug));
  return value;
}

/** Drops cached team details, e.g. after a sync or an archive in this process. */
export function forgetTeamDetails(): void {
  detailCache.clear();
}

/** One query reads the team, its league links and its record over the finished games of the league's season. */
async function readPublicDetail(db: Db, idOrSlug: string) {
  const [t] = await db.$queryRaw<(TeamRow & RecordCounts)[]>`
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
    foundedDate: t.foundedDate ? t.foundedDate.toISOString().slice(0, 10) : null,
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
