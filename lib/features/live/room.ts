// The matchday room: GET /api/events/{gameId}/stream. What the live feed changes (timeline events, score, status,
// the prediction lock at kick-off, the rating prompt at full time, stat lines) and the locker-room posts of the
// game's teams while it is live are appended, after their transaction commits, to the live change feed
// (lib/redis/changes.ts: one capped Redis Stream every instance reads), and each stream sends its game's: `snapshot`
// first (the game and its newest timeline events), then the events as they come. Event ids are the feed's:
// Last-Event-ID resumes while the feed holds them. The stream closes after the rating prompt (the game is over).
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { processCache } from "../../db/cache";
import { env } from "../../env";
import { feedStream, sse } from "../../http/change-stream";
import { notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { crowdSplit } from "../predictions/service";
import { changeFeed, type ChangeFeed } from "../../redis/changes";
import { latestTimeline, liveGameById, liveGamesOfTeams, toLiveGame, toTimelineItem } from "./queries";

export type LiveEventType = "timeline" | "score" | "status" | "lock" | "stats" | "post" | "rating_prompt";
export interface LiveEvent {
  type: LiveEventType;
  gameId: string;
  data: unknown;
}
export interface LiveChange extends LiveEvent {
  id: string;
}

export const LIVE_FEED_LENGTH = 20_000;
export const SNAPSHOT_TIMELINE = 30;

// A matchday room opens for thousands of fans at kick-off: the game read at the opening (1 s) and the snapshot at a
// feed position (2 s) are shared by the streams of a process, concurrent misses folding into one read. A snapshot
// keyed by its feed position `at` was read after every change up to `at` committed, so it is never older than `at`.
const openings = processCache<Awaited<ReturnType<typeof liveGameById>>>("__liveGameOpenings", () => 1_000);
const snapshots = processCache<{ game: ReturnType<typeof toLiveGame>; timeline: ReturnType<typeof toTimelineItem>[] }>("__liveGameSnapshots", () => 2_000);

function liveFeed(): Promise<ChangeFeed<LiveEvent, LiveChange>> {
  return changeFeed("live", `${env().RATE_LIMIT_PREFIX}:live-games`, LIVE_FEED_LENGTH, {
    encode: (e: LiveEvent) => [e.gameId, e.type, JSON.stringify(e.data)],
    decode: (id, gameId, type, data): LiveChange => ({ id, gameId, type: type as LiveEventType, data: JSON.parse(data) as unknown }),
  });
}

/** Appends committed live changes to the feed; a feed that cannot take them costs the streams the events, not the write. */
export async function publishLiveChanges(events: LiveEvent[]) {
  if (!events.length) return;
  try {
    await (await liveFeed()).append(events);
  } catch (error) {
    log("warn", { msg: "live feed append failed", error: String(error) });
  }
}

/**
 * The `lock` event: predictions close at the game's start on the server clock, and the crowd split (as
 * GET /api/events/{gameId}/predictions answers it from then on) goes to the room. Read in the ingest's transaction.
 */
export async function lockPayload(tx: DbTx, game: { id: string; startsAt: Date }) {
  return { gameId: game.id, startsAt: game.startsAt.toISOString(), lockedAt: new Date().toISOString(), crowd: await crowdSplit(tx, game.id) };
}

/**
 * A locker-room post just published: to the streams of the live games of its teams (the team whose locker room it is
 * in, the team it was posted as). Public posts only. Never throws (a post is not undone by a stream).
 */
export async function publishLockerPost(
  db: DbTx,
  post: { id: string; teamIds: (string | null | undefined)[]; isPublic: boolean; content: string; authorTeamId: string | null },
) {
  if (!post.isPublic) return;
  try {
    const teamIds = [...new Set(post.teamIds.filter((t): t is string => Boolean(t)))];
    const games = await liveGamesOfTeams(db, teamIds);
    await publishLiveChanges(
      games.map((gameId) => ({
        gameId,
        type: "post" as const,
        data: { postId: post.id, teamIds, authorTeamId: post.authorTeamId, excerpt: post.content.slice(0, 280), path: `/api/locker-room/${post.id}` },
      })),
    );
  } catch (error) {
    log("warn", { msg: "live post publish failed", error: String(error) });
  }
}

// The feed hands every listener of a process the same change objects: each is serialized once, not once per stream
// (2,000 fans in a room, 20 events a second).
const chunks = new WeakMap<LiveChange, Uint8Array>();
function encoded(c: LiveChange): Uint8Array {
  let chunk = chunks.get(c);
  if (!chunk) chunks.set(c, (chunk = sse(c.type, c.id, c.data)));
  return chunk;
}

// And a poll's batch of a game's changes goes out as one chunk (one socket write per stream and poll, not per event),
// built once for every stream of the room that gets the same run of changes.
const runs = new WeakMap<LiveChange, { last: LiveChange; n: number; chunk: Uint8Array }>();
function batchChunk(mine: LiveChange[]): Uint8Array[] {
  const [first, last] = [mine[0], mine[mine.length - 1]];
  if (!first || !last) return [];
  const hit = runs.get(first);
  if (hit && hit.last === last && hit.n === mine.length) return [hit.chunk];
  const parts = mine.map(encoded);
  const chunk = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (chunk.set(p, at), at + p.length), 0);
  runs.set(first, { last, n: mine.length, chunk });
  return [chunk];
}

export async function openGameStream(db: RawDb | DbTx, req: Request, bearerUserId: string | null, gameId: string): Promise<Response> {
  const first = await openings.get(gameId, () => liveGameById(db as DbTx, gameId));
  if (!first) throw notFound("Game");
  const feed = await liveFeed();
  let over = false;
  return feedStream(req, bearerUserId, {
    feed,
    eventsOf: (batch) => batchChunk(batch.filter((c) => c.gameId === gameId)),
    async snapshot(at) {
      const { game, timeline } = await snapshots.get(`${gameId}@${at}`, async () => ({
        game: toLiveGame((await liveGameById(db as DbTx, gameId))!),
        timeline: (await latestTimeline(db as DbTx, gameId, SNAPSHOT_TIMELINE)).map(toTimelineItem),
      }));
      // Over already (final, canceled): the snapshot is all there is and the stream closes.
      over = game.status === "final" || game.status === "canceled";
      return [sse("snapshot", at, { game, timeline })];
    },
    endWhen: (batch) => batch.some((c) => c.gameId === gameId && c.type === "rating_prompt"),
    endAfterSnapshot: () => over,
    endAfterReplay: () => first.status === "final" || first.status === "canceled",
  });
}
