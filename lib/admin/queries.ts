import type { Prisma } from "../generated/prisma/client";
import type { Db } from "../db/client";
import { teamIdSchema, type TeamSearch } from "./schemas";
import { raw } from "../db/raw";

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
    raw(db).$queryRaw<{ users: number; leagues: number; liveTeams: number; archivedTeams: number }[]>`
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
  return raw(db).$queryRaw<ConsoleLeagueRow[]>`
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

// Engagement: quests, the question bank (answers included: the console is the only place they are shown),
// rewards and a user's Rep ledger.

export const CONSOLE_QUEST_LIMIT = 200;

/** Quests, active first, newest first, with their team's name and how many active questions a quiz has. */
export async function listConsoleQuests(db: Db) {
  const [quests, total] = await Promise.all([
    db.quest.findMany({
      orderBy: [{ active: "desc" }, { createdAt: "desc" }, { id: "asc" }],
      take: CONSOLE_QUEST_LIMIT,
      select: {
        id: true,
        slug: true,
        title: true,
        kind: true,
        scope: true,
        cadence: true,
        repReward: true,
        repSource: true,
        active: true,
        retiredAt: true,
        availableFrom: true,
        availableUntil: true,
        team: { select: { id: true, name: true } },
        pass: { select: { id: true, name: true } },
        _count: { select: { questions: { where: { active: true } } } },
      },
    }),
    db.quest.count(),
  ]);
  return { quests: quests.map((q) => ({ ...q, repReward: Number(q.repReward) })), total };
}

/** One quest with its whole question bank (answers included), newest question first. */
export async function consoleQuest(db: Db, questId: string) {
  const id = teamIdSchema.safeParse(questId);
  if (!id.success) return null;
  const quest = await db.quest.findUnique({
    where: { id: id.data },
    include: {
      team: { select: { id: true, name: true } },
      pass: { select: { id: true, name: true } },
      questions: { orderBy: [{ active: "desc" }, { createdAt: "desc" }, { id: "asc" }] },
    },
  });
  return quest && { ...quest, repReward: Number(quest.repReward) };
}

/** Live teams for the quest form's team picker. */
export function teamOptions(db: Db) {
  return db.team.findMany({ where: { archivedAt: null }, orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true } });
}

export function passOptions(db: Db) {
  return db.pass.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true, kind: true } });
}

/** Every reward (active first) with how many times it was redeemed or claimed. */
export async function listConsoleRewards(db: Db) {
  const rewards = await db.reward.findMany({
    orderBy: [{ active: "desc" }, { kind: "asc" }, { costRep: "asc" }, { id: "asc" }],
    include: { _count: { select: { claims: true } } },
  });
  return rewards.map((r) => ({ ...r, costRep: Number(r.costRep) }));
}

export const CONSOLE_LEDGER_LIMIT = 200;

/**
 * A user's account and newest ledger entries, each credit with the reversal that undid it (grant key
 * `reversal:<entry id>`), if any.
 */
export async function consoleLedger(db: Db, userId: string) {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, externalId: true, handle: true, displayName: true, repBalance: true },
  });
  if (!user) return null;
  const [rows, total] = await Promise.all([
    db.repEntry.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: CONSOLE_LEDGER_LIMIT }),
    db.repEntry.count({ where: { userId } }),
  ]);
  const entries = rows.map((e) => ({ ...e, amount: Number(e.amount) }));
  const reversals = new Map(entries.filter((e) => e.earnKind === "reversal" && e.targetId).map((e) => [e.targetId!, e]));
  const missing = entries.filter((e) => e.amount > 0 && !reversals.has(e.id)).map((e) => `reversal:${e.id}`);
  // Reversals older than the page shown (rare): one more read for the credits on it.
  if (missing.length) {
    const older = await db.repEntry.findMany({ where: { userId, grantKey: { in: missing } } });
    for (const e of older) if (e.targetId) reversals.set(e.targetId, { ...e, amount: Number(e.amount) });
  }
  return {
    user: { ...user, repBalance: Number(user.repBalance) },
    total,
    entries: entries.map((e) => ({ ...e, reversedBy: reversals.get(e.id) ?? null })),
  };
}
