import type { Db } from "../db/client";
import type { AuthUser } from "../auth/users";
import { notFound } from "../http/errors";
import { decodeCursor, encodeCursor } from "../http/cursor";
import type { Prisma } from "../generated/prisma/client";
import { hasOvertimeLosses, normalizeSport } from "./sport";
import { DEFAULT_TEAM_PAGE, type TeamsQuery } from "./schemas";

const TEAM_INCLUDE = {
  league: true,
  conference: { select: { id: true, name: true } },
  division: { select: { id: true, name: true } },
} as const;

type TeamRow = Prisma.TeamGetPayload<{ include: typeof TEAM_INCLUDE }>;

export function toTeam(t: TeamRow) {
  const league = t.league;
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
    leagueInfo: league
      ? {
          id: league.id,
          slug: league.slug,
          name: league.name,
          shortName: league.shortName,
          sport: normalizeSport(league.sport),
          season: league.season,
          logo: league.logo,
          colors: { primary: league.primaryColor, secondary: league.secondaryColor },
          href: `/api/leagues/${league.slug}/standings`,
        }
      : { id: "", slug: "", name: "", shortName: null, sport, season: null, logo: null, colors: { primary: null, secondary: null }, href: "" },
    conference: t.conference,
    division: t.division,
  };
}

async function currentSeason(db: Db): Promise<string | null> {
  const r = await db.league.aggregate({ _max: { season: true }, where: { archivedAt: null } });
  return r._max.season;
}

export async function findTeamBySlug(db: Db, slug: string) {
  const t = await db.team.findUnique({ where: { slug: slug.toLowerCase() }, include: TEAM_INCLUDE });
  if (!t || t.archivedAt) throw notFound("Team");
  return { team: toTeam(t) };
}

/** GET /api/teams without slug: the full list, or a filtered/paginated page with total. */
export async function listTeams(db: Db, q: Omit<TeamsQuery, "slug">) {
  const where: Prisma.TeamWhereInput = { archivedAt: null };
  if (q.sport) {
    const sport = normalizeSport(q.sport);
    where.sport = sport === "other" ? { in: ["", "other"] } : sport;
  }
  if (q.league) where.league = { OR: [{ id: q.league }, { slug: q.league.toLowerCase() }] };
  const paginated = q.cursor !== undefined || q.limit !== undefined;
  const filtered = q.sport !== undefined || q.league !== undefined;
  const season = await currentSeason(db);

  if (!paginated && !filtered) {
    const teams = await db.team.findMany({ where, include: TEAM_INCLUDE, orderBy: [{ name: "asc" }, { id: "asc" }] });
    return { teams: teams.map(toTeam), season };
  }

  const limit = q.limit ?? DEFAULT_TEAM_PAGE;
  const pageWhere: Prisma.TeamWhereInput = { ...where };
  if (q.cursor) {
    const { sortKey: name, id } = decodeCursor(q.cursor);
    pageWhere.OR = [{ name: { gt: name } }, { name, id: { gt: id } }];
  }
  const [rows, total] = await Promise.all([
    db.team.findMany({ where: pageWhere, include: TEAM_INCLUDE, orderBy: [{ name: "asc" }, { id: "asc" }], take: limit + 1 }),
    db.team.count({ where }),
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

/** Id first, then slug (case-insensitive). Archived or missing → 404. */
export async function getTeamDetail(db: Db, idOrSlug: string, viewer: AuthUser | null) {
  let t = await db.team.findUnique({ where: { id: idOrSlug }, include: TEAM_INCLUDE });
  if (!t) t = await db.team.findUnique({ where: { slug: idOrSlug.toLowerCase() }, include: TEAM_INCLUDE });
  if (!t || t.archivedAt) throw notFound("Team");

  const [record, staff] = await Promise.all([
    teamRecord(db, t.id, t.league?.season ?? null, recordSport(t.league?.sport, t.sport)),
    viewer && !viewer.isAdmin
      ? db.teamStaff.findUnique({ where: { userId_teamId: { userId: viewer.id, teamId: t.id } }, select: { teamId: true } })
      : null,
  ]);
  return {
    team: {
      ...toTeam(t),
      teamRecord: record,
      foundedDate: t.foundedDate ? t.foundedDate.toISOString().slice(0, 10) : null,
      viewerCanPostAsTeam: viewer ? viewer.isAdmin || staff !== null : false,
    },
  };
}

/** The sport whose scoring rules a record follows: the league's, else the team's own. */
function recordSport(leagueSport: string | null | undefined, teamSport: string): string {
  const fromLeague = normalizeSport(leagueSport);
  return fromLeague !== "other" ? fromLeague : normalizeSport(teamSport);
}

/**
 * Win/loss record over the team's finished games of the league's current season. Only sports that keep an
 * overtime-loss column (hockey) count a defeat after regulation apart; elsewhere it is a plain loss.
 * `sport` is the league's sport (else the team's); when omitted it is read from the team row.
 */
export async function teamRecord(db: Db, teamId: string, season: string | null, sport?: string | null) {
  if (sport === undefined) {
    const row = await db.team.findUnique({ where: { id: teamId }, select: { sport: true, league: { select: { sport: true } } } });
    sport = row ? recordSport(row.league?.sport, row.sport) : null;
  }
  const otlColumn = hasOvertimeLosses(sport);
  const rows = await db.$queryRaw<{ wins: number; losses: number; ties: number; otl: number; played: number }[]>`
    SELECT
      count(*) FILTER (WHERE my > their)::int AS wins,
      count(*) FILTER (WHERE my < their AND NOT (overtime AND ${otlColumn}::boolean))::int AS losses,
      count(*) FILTER (WHERE my = their)::int AS ties,
      count(*) FILTER (WHERE my < their AND overtime AND ${otlColumn}::boolean)::int AS otl,
      count(*)::int AS played
    FROM (
      SELECT CASE WHEN home_team_id = ${teamId} THEN home_score ELSE away_score END AS my,
             CASE WHEN home_team_id = ${teamId} THEN away_score ELSE home_score END AS their,
             overtime
      FROM games
      WHERE (home_team_id = ${teamId} OR away_team_id = ${teamId})
        AND status = 'final' AND home_score IS NOT NULL AND away_score IS NOT NULL
        AND (${season}::text IS NULL OR season = ${season}::text)
    ) g`;
  const r = rows[0] ?? { wins: 0, losses: 0, ties: 0, otl: 0, played: 0 };
  const parts = [r.wins, r.losses];
  if (r.ties) parts.push(r.ties);
  if (r.otl) parts.push(r.otl);
  return {
    gamesPlayed: r.played,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    overtimeLosses: r.otl,
    summary: parts.join("-"),
  };
}

