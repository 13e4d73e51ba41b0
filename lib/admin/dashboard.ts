import type { Db } from "../db/client";

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
