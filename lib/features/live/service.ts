import type { Db, DbTx } from "../../db/client";
import { notFound, validationError } from "../../kernel/errors";
import { decodeCursor, decodeTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { liveBatchBody, type LiveEventInput } from "./schemas";
import { liveGameById, liveGames, playerLines, timelineRows, toLiveGame, toTimelineItem, type GameEventRow, type LiveGameRow } from "./queries";
import { ingestBatch } from "./ingest";

// The live match centre's rules: the provider's events in (ingest.ts, state.ts), the live list, a game's timeline and
// stats, its stream (room.ts), and the staff replay of a provider's events.

export { ingestBatch } from "./ingest";
export { openGameStream, publishLockerPost } from "./room";
export { liveEventsSignature } from "./signature";

export async function listLiveGames(db: DbTx, userId: string | null, q: { scope: "mine" | "all"; cursor?: string; limit: number }) {
  const after = q.cursor ? decodeTimeCursor(q.cursor) : null;
  const rows = await liveGames(db, q.scope === "all" ? null : userId, after, q.limit + 1);
  return keysetPage("games", rows, q.limit, (r: LiveGameRow) => encodeCursor(r.startsAt.getTime(), r.id), toLiveGame);
}

async function gameOr404(db: DbTx, gameId: string) {
  const game = await liveGameById(db, gameId);
  if (!game) throw notFound("Game");
  return game;
}

export async function gameTimeline(db: DbTx, gameId: string, q: { cursor?: string; limit: number }) {
  let after: { seq: bigint; id: string } | null = null;
  if (q.cursor) {
    const { sortKey, id } = decodeCursor(q.cursor);
    if (!/^\d{1,16}$/.test(sortKey) || !/^[0-9a-f-]{36}$/.test(id)) throw invalidCursor();
    after = { seq: BigInt(sortKey), id };
  }
  await gameOr404(db, gameId);
  const rows = await timelineRows(db, gameId, after, q.limit + 1);
  return keysetPage("events", rows, q.limit, (r: GameEventRow) => encodeCursor(r.seq.toString(), r.id), toTimelineItem);
}

const ZERO = { minutes: 0, goals: 0, assists: 0, shots: 0, saves: 0, yellowCards: 0, redCards: 0 };
type Totals = typeof ZERO;

export async function gameStats(db: DbTx, gameId: string) {
  const game = await gameOr404(db, gameId);
  const lines = await playerLines(db, gameId);
  const totals = new Map<string, Totals>([
    [game.homeTeamId, { ...ZERO }],
    [game.awayTeamId, { ...ZERO }],
  ]);
  const players = lines.map((l) => {
    const stats: Totals = {
      minutes: l.minutes,
      goals: l.goals,
      assists: l.assists,
      shots: l.shots,
      saves: l.saves,
      yellowCards: l.yellowCards,
      redCards: l.redCards,
    };
    const t = totals.get(l.teamId);
    if (t) for (const k of Object.keys(ZERO) as (keyof Totals)[]) t[k] += stats[k];
    return { playerId: l.playerId, name: l.player.name, teamId: l.teamId, stats, seq: Number(l.seq), updatedAt: l.updatedAt.toISOString() };
  });
  const g = toLiveGame(game);
  return {
    gameId,
    status: g.status,
    score: g.score,
    teams: [
      { teamId: game.homeTeamId, side: "home" as const, totals: totals.get(game.homeTeamId)! },
      { teamId: game.awayTeamId, side: "away" as const, totals: totals.get(game.awayTeamId)! },
    ],
    players,
  };
}

/** Parses a pasted or fixture feed (a batch `{ events }` or a bare array of events) for the console's replay. */
export function parseFeed(text: string): LiveEventInput[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw validationError("The feed is not valid JSON.", [{ path: "feed", message: "Invalid JSON" }]);
  }
  const parsed = liveBatchBody.safeParse(Array.isArray(json) ? { events: json } : json);
  if (!parsed.success) {
    throw validationError(
      "The feed is not a valid batch of live events.",
      parsed.error.issues.slice(0, 10).map((i) => ({ path: ["feed", ...i.path].join("."), message: i.message })),
    );
  }
  return parsed.data.events;
}

/** A staff member replays a provider feed through the webhook's own service; the replay is audited. */
export async function replayFeed(db: Db, actor: StaffActor, events: LiveEventInput[], label: string) {
  const result = await ingestBatch(db, events, "console");
  await recordAudit(db, actor, {
    action: "live.replay",
    targetType: "live_feed",
    targetId: label,
    after: {
      received: result.received,
      applied: result.applied,
      duplicates: result.duplicates,
      rejected: result.rejected.length,
      games: result.games.map((g) => g.id),
    },
  });
  return result;
}

/** The replay fixtures the console offers (lib/features/live/fixtures). */
export const LIVE_FIXTURES = ["match"] as const;

/** A fixture feed for a game: its placeholders ($GAME, $HOME, $AWAY) filled in, its event ids prefixed with the game's. */
export async function fixtureFeed(db: DbTx, name: string, gameId: string): Promise<LiveEventInput[]> {
  if (!(LIVE_FIXTURES as readonly string[]).includes(name)) throw validationError("No such fixture.", [{ path: "fixture", message: "Unknown fixture" }]);
  const game = await gameOr404(db, gameId);
  const { readFile } = await import("node:fs/promises");
  const path = await import("node:path");
  const text = await readFile(path.join(process.cwd(), "lib/features/live/fixtures", `${name}.json`), "utf8");
  const fill = (v: unknown): unknown => (v === "$GAME" ? game.id : v === "$HOME" ? game.homeTeamId : v === "$AWAY" ? game.awayTeamId : v);
  const { events } = JSON.parse(text) as { events: Record<string, unknown>[] };
  const filled = events.map((e) => ({
    ...Object.fromEntries(Object.entries(e).map(([k, v]) => [k, fill(v)])),
    id: `${game.id}:${String(e.id)}`,
    ...(e.amends ? { amends: `${game.id}:${String(e.amends)}` } : {}),
  }));
  return parseFeed(JSON.stringify({ events: filled }));
}
