import type { DbTx } from "../db/client";
import { liveTeamIdOrThrow } from "./lookup";

// GET /api/teams/{id}/roster: active players (index players(team_id, active)).

interface PlayerRow {
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

/** Numeric jerseys by number, then other or missing jerseys, then name, then id. Missing or archived team → 404. */
export async function getRoster(db: DbTx, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  const rows = await db.$queryRaw<PlayerRow[]>`
    SELECT p.id, p.name, p.jersey, p.position, p.role, p.duty, p.photo, p.availability::text AS availability
    FROM players p
    WHERE p.team_id = ${teamId} AND p.active
    ORDER BY CASE WHEN btrim(p.jersey) ~ '^[0-9]{1,9}$' THEN btrim(p.jersey)::int END ASC NULLS LAST,
             p.jersey ASC NULLS LAST, p.name ASC, p.id ASC`;
  return { players: rows.map(toRosterPlayer) };
}
