import type { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import { teamIdSchema, type TeamSearch } from "./schemas";

// The staff console's reads: dashboard counts, leagues with team counts, team search and names.

export interface DashboardCounts {
  users: number;
  leagues: number;
  liveTeams: number;
  archivedTeams: number;
  lastSync: { id: string; scope: string; status: string; trigger: string; actor: string | null; startedAt: Date; finishedAt: Date | null } | null;
}

/** Console dashboard: one round trip for the counts, one for the latest sync run. */
export async function dashboardCounts(db: Db): Promise<DashboardCounts> {
  const [[counts], lastSync] = await Promise.all([
    db.$queryRaw<{ users: number; leagues: number; liveTeams: number; archivedTeams: number }[]>`
      SELECT (SELECT count(*)::int FROM users) AS users,
             (SELECT count(*)::int FROM leagues WHERE archived_at IS NULL) AS leagues,
             (SELECT count(*)::int FROM teams WHERE archived_at IS NULL) AS "liveTeams",
             (SELECT count(*)::int FROM teams WHERE archived_at IS NOT NULL) AS "archivedTeams"`,
    db.syncRun.findFirst({
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, scope: true, status: true, trigger: true, actor: true, startedAt: true, finishedAt: true },
    }),
  ]);
  return { ...counts!, lastSync };
}

export interface ConsoleLeagueRow {
  id: string;
  slug: string;
  name: string;
  sport: string;
  season: string | null;
  source: string;
  archivedAt: Date | null;
  liveTeams: number;
  archivedTeams: number;
}

/** Every league with its live and archived team counts, in display order. */
export function listLeaguesWithCounts(db: Db): Promise<ConsoleLeagueRow[]> {
  return db.$queryRaw<ConsoleLeagueRow[]>`
    SELECT l.id, l.slug, l.name, l.sport, l.season, l.source, l.archived_at AS "archivedAt",
           count(t.id) FILTER (WHERE t.archived_at IS NULL)::int AS "liveTeams",
           count(t.id) FILTER (WHERE t.archived_at IS NOT NULL)::int AS "archivedTeams"
    FROM leagues l LEFT JOIN teams t ON t.league_id = l.id
    GROUP BY l.id
    ORDER BY l.display_order, l.name`;
}

export const TEAM_SEARCH_LIMIT = 100;

/** Teams by name or slug (case-insensitive substring), optionally in one league, archived ones only when asked. */
export async function searchConsoleTeams(db: Db, search: TeamSearch) {
  const where: Prisma.TeamWhereInput = {};
  if (search.q) {
    where.OR = [{ name: { contains: search.q, mode: "insensitive" } }, { slug: { contains: search.q.toLowerCase() } }];
  }
  if (search.league) where.leagueId = search.league;
  if (!search.archived) where.archivedAt = null;
  const [teams, total] = await Promise.all([
    db.team.findMany({
      where,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: TEAM_SEARCH_LIMIT,
      select: { id: true, slug: true, name: true, sport: true, source: true, archivedAt: true, league: { select: { id: true, name: true } } },
    }),
    db.team.count({ where }),
  ]);
  return { teams, total };
}

export async function leagueOptions(db: Db) {
  return db.league.findMany({ orderBy: [{ displayOrder: "asc" }, { name: "asc" }], select: { id: true, name: true } });
}

export async function teamName(db: Db, teamId: string): Promise<string | null> {
  const id = teamIdSchema.safeParse(teamId);
  if (!id.success) return null;
  return (await db.team.findUnique({ where: { id: id.data }, select: { name: true } }))?.name ?? null;
}
