import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { myTeamIdsColumn } from "../games/service";

// Reads and writes of the live match centre over game_events (the provider's events as received), games (status and
// score) and game_player_stats (the official player lines), and the serializers of what the routes answer.

export type LiveStatus = "scheduled" | "live" | "final" | "postponed" | "canceled";

export interface GameEventRow {
  id: string;
  eventId: string;
  gameId: string;
  seq: bigint;
  type: string;
  minute: number | null;
  teamId: string | null;
  playerId: string | null;
  player2Id: string | null;
  data: Prisma.JsonValue;
  amends: string | null;
  amendedBy: string | null;
  voided: boolean;
  corrected: Prisma.JsonValue;
  receivedAt: Date;
}

export type Corrected = {
  teamId: string | null;
  playerId: string | null;
  player2Id: string | null;
  minute: number | null;
};

export function toTimelineItem(e: GameEventRow) {
  return {
    id: e.eventId,
    gameId: e.gameId,
    seq: Number(e.seq),
    type: e.type,
    minute: e.minute,
    teamId: e.teamId,
    playerId: e.playerId,
    player2Id: e.player2Id,
    data: (e.data ?? {}) as Record<string, unknown>,
    amends: e.amends,
    amendedBy: e.amendedBy,
    voided: e.voided,
    corrected: (e.corrected ?? null) as Corrected | null,
    receivedAt: e.receivedAt.toISOString(),
  };
}
export type TimelineItem = ReturnType<typeof toTimelineItem>;

export interface LockedGame {
  id: string;
  status: LiveStatus;
  homeScore: number | null;
  awayScore: number | null;
  startsAt: Date;
  homeTeamId: string;
  awayTeamId: string;
}

/** The game's row, locked for the batch (FOR UPDATE): two deliveries of one game's events apply one after the other. */
export async function lockGame(tx: DbTx, gameId: string): Promise<LockedGame | null> {
  const rows = await tx.$queryRaw<LockedGame[]>`
    SELECT id, status::text AS status, home_score AS "homeScore", away_score AS "awayScore", starts_at AS "startsAt",
           home_team_id AS "homeTeamId", away_team_id AS "awayTeamId"
    FROM games WHERE id = ${gameId} FOR UPDATE`;
  return rows[0] ?? null;
}

export async function existingPlayers(tx: DbTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await tx.player.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export type NewGameEvent = Omit<GameEventRow, "id" | "amendedBy" | "voided" | "corrected" | "receivedAt" | "data"> & {
  data: Prisma.InputJsonValue;
  source: string;
};

/** Inserts the events not received before (by provider event id) and answers those it inserted. */
export async function insertEvents(tx: DbTx, events: NewGameEvent[]): Promise<GameEventRow[]> {
  if (!events.length) return [];
  return tx.gameEvent.createManyAndReturn({ data: events, skipDuplicates: true });
}

/** Writes a stat line unless a line with the same or a higher seq is there already; answers whether it was written. */
export async function upsertStatLine(
  tx: DbTx,
  l: {
    gameId: string;
    playerId: string;
    teamId: string;
    seq: bigint;
    stats: Record<"minutes" | "goals" | "assists" | "shots" | "saves" | "yellowCards" | "redCards", number>;
  },
): Promise<boolean> {
  const s = l.stats;
  const n = await tx.$executeRaw`
    INSERT INTO game_player_stats (game_id, player_id, team_id, minutes, goals, assists, shots, saves, yellow_cards, red_cards, seq, updated_at)
    VALUES (${l.gameId}, ${l.playerId}, ${l.teamId}, ${s.minutes}, ${s.goals}, ${s.assists}, ${s.shots}, ${s.saves}, ${s.yellowCards}, ${s.redCards}, ${l.seq}, now())
    ON CONFLICT (game_id, player_id) DO UPDATE SET
      team_id = excluded.team_id, minutes = excluded.minutes, goals = excluded.goals, assists = excluded.assists,
      shots = excluded.shots, saves = excluded.saves, yellow_cards = excluded.yellow_cards, red_cards = excluded.red_cards,
      seq = excluded.seq, updated_at = now()
    WHERE game_player_stats.seq < excluded.seq`;
  return n === 1;
}

/** A game's timeline events (every event but the stat lines): what decides its status and score, and the amendments. */
export function stateEvents(tx: DbTx, gameId: string): Promise<GameEventRow[]> {
  return tx.gameEvent.findMany({ where: { gameId, type: { not: "stat_line" } }, orderBy: [{ seq: "asc" }, { id: "asc" }] });
}

export async function markAmended(tx: DbTx, id: string, mark: { amendedBy: string; voided: boolean; corrected: Corrected | null }) {
  await tx.gameEvent.update({ where: { id }, data: { amendedBy: mark.amendedBy, voided: mark.voided, corrected: mark.corrected ?? Prisma.DbNull } });
}

export async function updateGameState(tx: DbTx, gameId: string, state: { status?: LiveStatus; homeScore?: number; awayScore?: number }) {
  await tx.game.update({ where: { id: gameId }, data: state });
}

// Reads.

/** The timeline (stat lines left out) in the provider's order: keyset on (seq, id). */
export function timelineRows(tx: DbTx, gameId: string, after: { seq: bigint; id: string } | null, take: number): Promise<GameEventRow[]> {
  return tx.gameEvent.findMany({
    where: {
      gameId,
      type: { not: "stat_line" },
      ...(after ? { OR: [{ seq: { gt: after.seq } }, { seq: after.seq, id: { gt: after.id } }] } : {}),
    },
    orderBy: [{ seq: "asc" }, { id: "asc" }],
    take,
  });
}

/** The newest `take` timeline events, oldest first (a stream's snapshot). */
export async function latestTimeline(tx: DbTx, gameId: string, take: number): Promise<GameEventRow[]> {
  const rows = await tx.gameEvent.findMany({ where: { gameId, type: { not: "stat_line" } }, orderBy: [{ seq: "desc" }, { id: "desc" }], take });
  return rows.reverse();
}

export interface LiveGameRow {
  id: string;
  leagueId: string;
  leagueName: string;
  startsAt: Date;
  status: LiveStatus;
  homeTeamId: string;
  homeTeamName: string;
  awayTeamId: string;
  awayTeamName: string;
  homeScore: number | null;
  awayScore: number | null;
  minute: number | null;
  lastEventAt: Date | null;
}

const LIVE_COLUMNS = Prisma.sql`
  g.id, l.id AS "leagueId", l.name AS "leagueName", g.starts_at AS "startsAt", g.status::text AS status,
  g.home_team_id AS "homeTeamId", ht.name AS "homeTeamName", g.away_team_id AS "awayTeamId", at.name AS "awayTeamName",
  g.home_score AS "homeScore", g.away_score AS "awayScore",
  le.minute, le.received_at AS "lastEventAt"`;
const LIVE_FROM = Prisma.sql`games g
  JOIN leagues l ON l.id = g.league_id
  JOIN teams ht ON ht.id = g.home_team_id
  JOIN teams at ON at.id = g.away_team_id
  LEFT JOIN LATERAL (SELECT e.minute, e.received_at FROM game_events e WHERE e.game_id = g.id AND e.type <> 'stat_line'
                     ORDER BY e.seq DESC, e.id DESC LIMIT 1) le ON true`;

export function toLiveGame(r: LiveGameRow) {
  return {
    id: r.id,
    league: { id: r.leagueId, name: r.leagueName },
    startsAt: r.startsAt.toISOString(),
    status: r.status,
    homeTeam: { id: r.homeTeamId, name: r.homeTeamName },
    awayTeam: { id: r.awayTeamId, name: r.awayTeamName },
    score: r.homeScore !== null && r.awayScore !== null ? { home: r.homeScore, away: r.awayScore } : null,
    minute: r.minute,
    lastEventAt: r.lastEventAt?.toISOString() ?? null,
  };
}
export type LiveGame = ReturnType<typeof toLiveGame>;

/** Games in progress (status live), soonest start first, keyset on (starts_at, id); `userId`: only its teams' games. */
export function liveGames(tx: DbTx, userId: string | null, after: { at: Date; id: string } | null, take: number): Promise<LiveGameRow[]> {
  const mine =
    userId === null ? Prisma.sql`true` : Prisma.sql`(g.home_team_id = ANY(${myTeamIdsColumn(userId)}) OR g.away_team_id = ANY(${myTeamIdsColumn(userId)}))`;
  const keyset = after ? Prisma.sql`AND (g.starts_at, g.id) > (${after.at}, ${after.id})` : Prisma.empty;
  return tx.$queryRaw<LiveGameRow[]>`
    SELECT ${LIVE_COLUMNS} FROM ${LIVE_FROM}
    WHERE g.status = 'live' AND ${mine} ${keyset}
    ORDER BY g.starts_at, g.id LIMIT ${take}`;
}

export async function liveGameById(tx: DbTx, gameId: string): Promise<LiveGameRow | null> {
  const rows = await tx.$queryRaw<LiveGameRow[]>`SELECT ${LIVE_COLUMNS} FROM ${LIVE_FROM} WHERE g.id = ${gameId}`;
  return rows[0] ?? null;
}

/** Live games of any of these teams (a locker-room post reaches their streams). */
export async function liveGamesOfTeams(tx: DbTx, teamIds: string[]): Promise<string[]> {
  if (!teamIds.length) return [];
  const rows = await tx.game.findMany({
    where: { status: "live", OR: [{ homeTeamId: { in: teamIds } }, { awayTeamId: { in: teamIds } }] },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

export function playerLines(tx: DbTx, gameId: string) {
  return tx.gamePlayerStat.findMany({
    where: { gameId },
    include: { player: { select: { name: true } } },
    orderBy: [{ teamId: "asc" }, { playerId: "asc" }],
  });
}
