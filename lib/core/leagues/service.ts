import { processCache } from "../../db/cache";
import type { Db } from "../../db/client";
import { env } from "../../env";
import { notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { normalizeSport } from "../teams/service";
import type { LeagueSummary, LeaguesQuery, SportsCatalog } from "./schemas";
import { leagueTree, readStandings } from "./queries";
import type { Standings } from "./standings";

// ---------------------------------------------------------------------------------------------------------------
// GET /api/leagues

/** Non-archived leagues by displayOrder, then name, then id, each with its conferences and divisions. */
export async function listLeagues(db: Db, q: LeaguesQuery = {}): Promise<{ leagues: LeagueSummary[] }> {
  const { leagues, conferences, divisions } = await leagueTree(db);
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

// Standings are the same for every caller and change only when games finish or a sync runs, so they are kept
// briefly per process (TEAM_CACHE_TTL_MS, like team details; clients tolerate a short delay after syncs).
const standingsCache = processCache<Standings | null>("__standingsCache", () => env().TEAM_CACHE_TTL_MS);

export async function getStandings(db: Db, idOrSlug: string): Promise<Standings> {
  const standings = await standingsCache.get(idOrSlug, () => readStandings(db, idOrSlug));
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
