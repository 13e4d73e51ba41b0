import type { Db } from "../db/client";
import { env } from "../env";
import { notFound } from "../http/errors";
import { log } from "../http/log";
import { normalizeSport } from "../teams/sport";
import type { LeagueSummary, LeaguesQuery, SportsCatalog } from "./schemas";
import { buildStandings, type FinishedGame, type Standings, type StandingsTeam } from "./standings";

// League reads. Every query runs on an index: leagues by primary key or the unique slug; teams by
// teams(league_id, name, id); games by games(league_id, status, starts_at); conferences and divisions by
// their league_id indexes. The league list and the sports catalog scan the leagues table, which holds a few
// dozen rows (no index on archived_at or display_order is worth having at that size).

// ---------------------------------------------------------------------------------------------------------------
// GET /api/leagues

interface LeagueRow {
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

/** Non-archived leagues by displayOrder, then name, then id, each with its conferences and divisions. */
export async function listLeagues(db: Db, q: LeaguesQuery = {}): Promise<{ leagues: LeagueSummary[] }> {
  const [leagues, conferences, divisions] = await Promise.all([
    db.$queryRaw<LeagueRow[]>`
      SELECT l.id, l.slug, l.name, l.short_name AS "shortName", l.sport, l.season, l.logo,
             l.primary_color AS "primaryColor", l.secondary_color AS "secondaryColor", l.display_order AS "displayOrder",
             (SELECT count(*)::int FROM teams t WHERE t.league_id = l.id AND t.archived_at IS NULL) AS "teamCount"
      FROM leagues l
      WHERE l.archived_at IS NULL
      ORDER BY l.display_order, l.name, l.id`,
    db.$queryRaw<{ id: string; leagueId: string; name: string }[]>`
      SELECT c.id, c.league_id AS "leagueId", c.name
      FROM conferences c JOIN leagues l ON l.id = c.league_id
      WHERE l.archived_at IS NULL
      ORDER BY c.name, c.id`,
    db.$queryRaw<{ id: string; leagueId: string; conferenceId: string | null; name: string }[]>`
      SELECT d.id, d.league_id AS "leagueId", d.conference_id AS "conferenceId", d.name
      FROM divisions d JOIN leagues l ON l.id = d.league_id
      WHERE l.archived_at IS NULL
      ORDER BY d.name, d.id`,
  ]);
  const sport = q.sport === undefined ? undefined : normalizeSport(q.sport);
  return {
    leagues: leagues
      .map((l) => {
        const own = conferences.filter((c) => c.leagueId === l.id);
        const ownIds = new Set(own.map((c) => c.id));
        const ownDivisions = divisions.filter((d) => d.leagueId === l.id);
        return {
          id: l.id,
          slug: l.slug,
          name: l.name,
          shortName: l.shortName,
          sport: normalizeSport(l.sport),
          season: l.season,
          logo: l.logo,
          colors: { primary: l.primaryColor, secondary: l.secondaryColor },
          displayOrder: l.displayOrder,
          teamCount: l.teamCount,
          conferences: own.map((c) => ({
            id: c.id,
            name: c.name,
            divisions: ownDivisions.filter((d) => d.conferenceId === c.id).map((d) => ({ id: d.id, name: d.name })),
          })),
          // A division whose conference is missing or belongs to another league is listed at league level.
          divisions: ownDivisions.filter((d) => d.conferenceId === null || !ownIds.has(d.conferenceId)).map((d) => ({ id: d.id, name: d.name })),
          href: `/api/leagues/${l.slug}/standings`,
        };
      })
      .filter((l) => sport === undefined || l.sport === sport),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/leagues/{leagueId}/standings

interface TeamRow {
  id: string;
  slug: string;
  name: string;
  shortName: string | null;
  abbreviation: string | null;
  logo: string | null;
  conferenceId: string | null;
  conferenceName: string | null;
  divisionId: string | null;
  divisionName: string | null;
}

/** The league by internal id (exact), else by slug (slugs are stored lower-case); archived or missing → null. */
async function findLeague(db: Db, idOrSlug: string) {
  const [league] = await db.$queryRaw<{ id: string; name: string; sport: string; season: string | null; archivedAt: Date | null }[]>`
    SELECT id, name, sport, season, archived_at AS "archivedAt"
    FROM leagues
    WHERE id = ${idOrSlug} OR slug = ${idOrSlug.toLowerCase()}
    ORDER BY (id = ${idOrSlug}) DESC
    LIMIT 1`;
  return league && !league.archivedAt ? league : null;
}

/** Reads a league's teams and its finished, scored games of the current season (all seasons when it has none). */
async function readStandings(db: Db, idOrSlug: string): Promise<Standings | null> {
  const league = await findLeague(db, idOrSlug);
  if (!league) return null;
  const [teams, games] = await Promise.all([
    db.$queryRaw<TeamRow[]>`
      SELECT t.id, t.slug, t.name, t.short_name AS "shortName", t.abbreviation, t.logo,
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
    teams: teams.map(
      (t): StandingsTeam => ({
        id: t.id,
        slug: t.slug,
        name: t.name,
        shortName: t.shortName,
        abbreviation: t.abbreviation,
        logo: t.logo,
        conference: t.conferenceId ? { id: t.conferenceId, name: t.conferenceName! } : null,
        division: t.divisionId ? { id: t.divisionId, name: t.divisionName! } : null,
      }),
    ),
    games: games as FinishedGame[],
  });
}

// Standings are the same for every caller and change only when games finish or a sync runs, so they are kept
// briefly per process (TEAM_CACHE_TTL_MS, like team details; clients tolerate a short delay after syncs).
// Caching the promise folds concurrent misses into one read.
// On globalThis for the same reason as the team-detail cache: one cache per process, whichever bundle clears it.
const standingsCache = ((globalThis as unknown as { __standingsCache?: Map<string, { expires: number; value: Promise<Standings | null> }> }).__standingsCache ??=
  new Map());

export async function getStandings(db: Db, idOrSlug: string): Promise<Standings> {
  const ttl = env().TEAM_CACHE_TTL_MS;
  let value: Promise<Standings | null>;
  const now = Date.now();
  const hit = standingsCache.get(idOrSlug);
  if (ttl <= 0) value = readStandings(db, idOrSlug);
  else if (hit && hit.expires > now) value = hit.value;
  else {
    if (standingsCache.size >= 1_000) standingsCache.clear();
    value = readStandings(db, idOrSlug);
    standingsCache.set(idOrSlug, { expires: now + ttl, value });
    value.catch(() => standingsCache.delete(idOrSlug));
  }
  const standings = await value;
  if (!standings) throw notFound("League");
  return standings;
}

/** Drops cached standings, e.g. after a sync or a game result in this process. */
export function forgetStandings(): void {
  standingsCache.clear();
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/config/sports

/** "ice-hockey" → "Ice Hockey": a transform of the id, not a second list of sports. */
export function sportLabel(id: string): string {
  return id
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

interface CatalogLeague {
  id: string;
  name: string;
  shortName: string | null;
  sport: string;
  displayOrder: number;
}

/** Pure: the catalog from league rows (archived ones already left out). */
export function buildSportsCatalog(leagues: readonly CatalogLeague[]): SportsCatalog {
  const bySport = new Map<string, CatalogLeague[]>();
  for (const l of leagues) {
    const sport = normalizeSport(l.sport);
    bySport.set(sport, [...(bySport.get(sport) ?? []), l]);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    sports: [...bySport]
      .map(([id, ls]) => ({ id, first: Math.min(...ls.map((l) => l.displayOrder)), ls }))
      .sort((a, b) => a.first - b.first || cmp(a.id, b.id))
      .map(({ id, ls }, i) => ({
        id,
        label: sportLabel(id),
        order: i + 1,
        leagues: [...ls]
          .sort((a, b) => a.displayOrder - b.displayOrder || cmp(a.name, b.name) || cmp(a.id, b.id))
          .map((l, j) => ({ id: l.id, label: l.shortName?.trim() || l.name, order: j + 1 })),
      })),
  };
}

// The last catalog this process built: if the database fails, native and web clients get it instead of a 500.
let lastCatalog: SportsCatalog | undefined;

export async function getSportsCatalog(db: Db): Promise<SportsCatalog> {
  try {
    const leagues = await db.league.findMany({
      where: { archivedAt: null },
      select: { id: true, name: true, shortName: true, sport: true, displayOrder: true },
    });
    return (lastCatalog = buildSportsCatalog(leagues));
  } catch (error) {
    if (!lastCatalog) throw error;
    log("warn", { msg: "sports catalog read failed; serving the last one built", error: error instanceof Error ? error.message : String(error) });
    return lastCatalog;
  }
}
