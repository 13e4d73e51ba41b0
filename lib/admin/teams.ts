import { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import { forgetStandings } from "../leagues/service";
import { forgetTeamDetails } from "../teams/service";

export const teamSearchSchema = z.object({
  q: z.string().trim().max(100).optional().default(""),
  league: z.string().trim().max(100).optional().default(""),
  archived: z.enum(["1"]).optional().catch(undefined),
});
export type TeamSearch = z.infer<typeof teamSearchSchema>;

export const TEAM_SEARCH_LIMIT = 100;

/** Teams by name or slug (case-insensitive substring), optionally in one league, archived ones only when asked. */
export async function searchTeams(db: Db, search: TeamSearch) {
  const where: Prisma.TeamWhereInput = {};
  if (search.q) {
    where.OR = [
      { name: { contains: search.q, mode: "insensitive" } },
      { slug: { contains: search.q.toLowerCase() } },
    ];
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

export const teamIdSchema = z.string().trim().min(1).max(200);

/**
 * Archives a live team (hidden from every public read) or restores an archived one. Conditional update, so a
 * repeated click changes nothing; the process's cached team details are dropped either way.
 * Returns the team's name, or null when there is no such team in the expected state.
 */
export async function setTeamArchived(db: Db, teamId: string, archived: boolean): Promise<{ changed: boolean; name: string } | null> {
  const id = teamIdSchema.parse(teamId);
  const { count } = await db.team.updateMany({
    where: { id, archivedAt: archived ? null : { not: null } },
    data: { archivedAt: archived ? new Date() : null },
  });
  forgetTeamDetails();
  forgetStandings();
  const team = await db.team.findUnique({ where: { id }, select: { name: true } });
  return team ? { changed: count === 1, name: team.name } : null;
}

export async function leagueOptions(db: Db) {
  return db.league.findMany({ orderBy: [{ displayOrder: "asc" }, { name: "asc" }], select: { id: true, name: true } });
}

export async function teamName(db: Db, teamId: string): Promise<string | null> {
  const id = teamIdSchema.safeParse(teamId);
  if (!id.success) return null;
  return (await db.team.findUnique({ where: { id: id.data }, select: { name: true } }))?.name ?? null;
}
