import type { DbTx } from "../db/client";
import { liveTeamIdOrThrow } from "./lookup";

/** GET /api/teams/{id}/achievements: badges newest first (index team_achievements(team_id, awarded_at)). */
export async function listTeamAchievements(db: DbTx, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  const rows = await db.teamAchievement.findMany({
    where: { teamId },
    orderBy: [{ awardedAt: "desc" }, { id: "asc" }],
    select: { id: true, key: true, title: true, description: true, icon: true, season: true, awardedAt: true },
  });
  return { achievements: rows.map((a) => ({ ...a, awardedAt: a.awardedAt.toISOString() })) };
}
