import type { DbTx } from "../db/client";
import { notFound } from "../http/errors";
import { TEAM_COLUMNS, TEAM_FROM, type TeamRow } from "./service";

// Team path parameters take an id or a slug, id tried first (as team detail does). Both probes use unique
// indexes (teams_pkey, teams_slug_key).

export interface TeamRef {
  id: string;
  archived: boolean;
}

/** The team an id or slug names, archived or not; null when none does. */
export async function findTeamRef(db: DbTx, idOrSlug: string): Promise<TeamRef | null> {
  const [row] = await db.$queryRaw<{ id: string; archivedAt: Date | null }[]>`
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
  const [row] = await db.$queryRaw<TeamRow[]>`
    SELECT ${TEAM_COLUMNS} FROM ${TEAM_FROM}
    WHERE t.id = ${idOrSlug} OR t.slug = ${idOrSlug.toLowerCase()}
    ORDER BY (t.id = ${idOrSlug}) DESC LIMIT 1`;
  if (!row || row.archivedAt) throw notFound("Team");
  return row;
}
