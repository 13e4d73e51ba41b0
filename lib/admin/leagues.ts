import type { Db } from "../db/client";

export interface LeagueRow {
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
export function listLeaguesWithCounts(db: Db): Promise<LeagueRow[]> {
  return db.$queryRaw<LeagueRow[]>`
    SELECT l.id, l.slug, l.name, l.sport, l.season, l.source, l.archived_at AS "archivedAt",
           count(t.id) FILTER (WHERE t.archived_at IS NULL)::int AS "liveTeams",
           count(t.id) FILTER (WHERE t.archived_at IS NOT NULL)::int AS "archivedTeams"
    FROM leagues l LEFT JOIN teams t ON t.league_id = l.id
    GROUP BY l.id
    ORDER BY l.display_order, l.name`;
}
