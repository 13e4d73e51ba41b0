import type { DbTx, Pool } from "../../db/client";
import { statementNamed } from "../../db/raw";

export interface StarEntryRow {
  teamId: string;
  slug: string | null;
  name: string | null;
  logo: string | null;
  source: string | null;
  providerId: string | null;
  starredAt: Date;
}

// Starred entries in one round trip: each star joined with its team row when one exists. The live row wins over
// the stored snapshot; with no row the snapshot stands and source/providerId are null. $2 narrows to one team.
const STAR_ENTRIES_SQL = `
  SELECT s.team_id AS "teamId", s.starred_at AS "starredAt",
         CASE WHEN t.id IS NULL THEN s.slug ELSE t.slug END AS slug,
         CASE WHEN t.id IS NULL THEN s.name ELSE t.name END AS name,
         CASE WHEN t.id IS NULL THEN s.logo ELSE t.logo END AS logo,
         t.source, t.provider_id AS "providerId"
  FROM starred_teams s LEFT JOIN teams t ON t.id = s.team_id
  WHERE s.user_id = $1::uuid AND ($2::text IS NULL OR s.team_id = $2::text)
  ORDER BY s.starred_at DESC, s.team_id`;

export const toStarredTeam = (r: StarEntryRow) => ({
  id: r.teamId,
  slug: r.slug,
  name: r.name,
  logo: r.logo,
  source: r.source,
  providerId: r.providerId,
  starredAt: r.starredAt.toISOString(),
});

/** Inside a transaction (after a write). */
export async function starEntries(tx: DbTx, userId: string, onlyTeamId: string | null = null) {
  return (await tx.$queryRawUnsafe<StarEntryRow[]>(STAR_ENTRIES_SQL, userId, onlyTeamId)).map(toStarredTeam);
}

/** The starred list, a hot read: plain pg with a statement prepared once per connection. */
export async function listStars(pool: Pool, userId: string) {
  const { rows } = await pool.query<StarEntryRow>({ name: statementNamed("starred_teams_list"), text: STAR_ENTRIES_SQL, values: [userId, null] });
  return rows.map(toStarredTeam);
}
