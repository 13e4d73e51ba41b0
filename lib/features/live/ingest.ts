import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import type { IngestResult, LiveEventInput } from "./schemas";
import {
  existingPlayers,
  insertEvents,
  lockGame,
  markAmended,
  stateEvents,
  toTimelineItem,
  updateGameState,
  upsertStatLine,
  type LiveStatus,
  type NewGameEvent,
} from "./queries";
import { computeState, foldAmendments } from "./state";
import { publishLiveChanges, lockPayload, type LiveEvent } from "./room";

// Applying a batch of the provider's events (the webhook and the console's replay run this same function). Per game,
// one transaction under the game row's lock: the events not received before are inserted (ON CONFLICT DO NOTHING on
// the provider event id: a replay, even a concurrent one, inserts nothing and so changes nothing), stat lines are
// written through to game_player_stats when their seq is newer, amendments mark the events they correct, and the
// game's status and score are recomputed from all its events. What changed goes to the game's stream after commit.

const FIELDS = new Set(["id", "gameId", "seq", "type", "minute", "teamId", "playerId", "player2Id", "amends"]);

/** The type's own fields (stored as `data`). */
const dataOf = (e: LiveEventInput): Prisma.InputJsonValue => Object.fromEntries(Object.entries(e).filter(([k]) => !FIELDS.has(k))) as Prisma.InputJsonValue;

const playersOf = (e: LiveEventInput) => [
  "playerId" in e ? e.playerId : undefined,
  "player2Id" in e ? e.player2Id : undefined,
  ...(e.type === "amendment" ? [e.changes?.playerId, e.changes?.player2Id] : []),
];
const teamsOf = (e: LiveEventInput) => ["teamId" in e ? e.teamId : undefined, e.type === "amendment" ? e.changes?.teamId : undefined];

export async function ingestBatch(db: Db, events: LiveEventInput[], source: "webhook" | "console"): Promise<IngestResult> {
  const result: IngestResult = { received: events.length, applied: 0, duplicates: 0, rejected: [], games: [] };
  // One event per provider id within the batch (the first), grouped by game, games in id order (one lock order).
  const seen = new Set<string>();
  const byGame = new Map<string, LiveEventInput[]>();
  for (const e of events) {
    if (seen.has(e.id)) {
      result.duplicates++;
      continue;
    }
    seen.add(e.id);
    byGame.set(e.gameId, [...(byGame.get(e.gameId) ?? []), e]);
  }
  for (const gameId of [...byGame.keys()].sort()) {
    const batch = byGame.get(gameId)!;
    const out = await db.$transaction(async (tx) => {
      const game = await lockGame(tx, gameId);
      if (!game) return { rejected: batch.map((e) => ({ id: e.id, reason: `Unknown game ${gameId}.` })), applied: null };
      const players = await existingPlayers(tx, [...new Set(batch.flatMap(playersOf).filter((p): p is string => Boolean(p)))]);
      const teams = new Set([game.homeTeamId, game.awayTeamId]);
      const rejected: { id: string; reason: string }[] = [];
      const accepted = batch.filter((e) => {
        const team = teamsOf(e).find((t) => t && !teams.has(t));
        const player = playersOf(e).find((p) => p && !players.has(p));
        if (team) rejected.push({ id: e.id, reason: `Team ${team} does not play in game ${gameId}.` });
        else if (player) rejected.push({ id: e.id, reason: `Unknown player ${player}.` });
        return !team && !player;
      });
      const rows: NewGameEvent[] = accepted.map((e) => ({
        eventId: e.id,
        gameId,
        seq: BigInt(e.seq),
        type: e.type,
        minute: e.minute ?? null,
        teamId: ("teamId" in e ? e.teamId : null) ?? null,
        playerId: ("playerId" in e ? e.playerId : null) ?? null,
        player2Id: ("player2Id" in e ? e.player2Id : null) ?? null,
        amends: e.type === "amendment" ? e.amends : null,
        data: dataOf(e),
        source,
      }));
      const inserted = await insertEvents(tx, rows);
      const changes: LiveEvent[] = [];
      // Stat lines: the newest seq wins (a late, older line changes nothing).
      const lines = [];
      for (const row of inserted.filter((r) => r.type === "stat_line")) {
        const stats = (row.data as { stats: Parameters<typeof upsertStatLine>[1]["stats"] }).stats;
        if (await upsertStatLine(tx, { gameId, playerId: row.playerId!, teamId: row.teamId!, seq: row.seq, stats })) {
          lines.push({ playerId: row.playerId!, teamId: row.teamId!, seq: Number(row.seq), stats });
        }
      }
      if (lines.length) changes.push({ gameId, type: "stats", data: { players: lines } });

      const state = inserted.some((r) => r.type !== "stat_line") ? await recompute(tx, game) : null;
      const marked = new Map((state?.marked ?? []).map((r) => [r.eventId, r]));
      for (const row of inserted.filter((r) => r.type !== "stat_line").sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))) {
        const amended = row.amends ? marked.get(row.amends) : undefined;
        changes.push({
          gameId,
          type: "timeline",
          data: { event: toTimelineItem(marked.get(row.eventId) ?? row), ...(amended ? { amended: toTimelineItem(amended) } : {}) },
        });
      }
      let status = game.status;
      let score = game.homeScore !== null && game.awayScore !== null ? { home: game.homeScore, away: game.awayScore } : null;
      if (state) {
        const update: { status?: LiveStatus; homeScore?: number; awayScore?: number } = {};
        if (state.status && state.status !== game.status) update.status = state.status;
        if (state.score && (state.score.home !== game.homeScore || state.score.away !== game.awayScore)) {
          update.homeScore = state.score.home;
          update.awayScore = state.score.away;
        }
        if (Object.keys(update).length) await updateGameState(tx, gameId, update);
        if (update.homeScore !== undefined) {
          score = state.score;
          changes.push({ gameId, type: "score", data: { gameId, score } });
        }
        if (update.status) {
          status = update.status;
          changes.push({ gameId, type: "status", data: { gameId, status, previous: game.status } });
          if (status === "live" && game.status === "scheduled") changes.push({ gameId, type: "lock", data: await lockPayload(tx, game) });
          if (status === "final") changes.push({ gameId, type: "rating_prompt", data: { gameId, ratings: `/api/events/${gameId}/ratings`, score } });
        }
      }
      return { rejected, applied: { inserted: inserted.length, duplicates: accepted.length - inserted.length, changes, game: { id: gameId, status, score } } };
    }, txOptions(30_000));
    result.rejected.push(...out.rejected);
    if (!out.applied) continue;
    result.applied += out.applied.inserted;
    result.duplicates += out.applied.duplicates;
    result.games.push(out.applied.game);
    // Committed: to the game's streams now (a later game's failure does not hold them back).
    await publishLiveChanges(out.applied.changes);
  }
  return result;
}

/** Marks the amended events anew and computes the game's state from all its events; answers the rows it (re)marked. */
async function recompute(tx: Parameters<typeof stateEvents>[0], game: { id: string; homeTeamId: string; awayTeamId: string }) {
  const events = await stateEvents(tx, game.id);
  const marks = foldAmendments(events);
  const marked = [];
  for (const e of events) {
    const m = marks.get(e.eventId);
    if (!m) continue;
    if (e.amendedBy === m.amendedBy && e.voided === m.voided && JSON.stringify(e.corrected) === JSON.stringify(m.corrected)) continue;
    await markAmended(tx, e.id, m);
    marked.push({ ...e, amendedBy: m.amendedBy, voided: m.voided, corrected: m.corrected });
  }
  return { ...computeState(events, marks, game), marked };
}
