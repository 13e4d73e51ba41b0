import { parseCookies, SESSION_COOKIE } from "../../../auth/cookies";
import { verifySessionToken } from "../../../auth/tokens";
import { isSuspended, resolveUser } from "../../../auth/users";
import type { DbTx } from "../../../db/client";
import { feedStream, sse } from "../../../http/change-stream";
import { boardFeed, type BoardChange } from "./changes";
import { boardKey, boardOrThrow, LEFT, readBoard } from "./service";
import { unpackScore } from "./score";
import { boardStore, type Standing } from "./store";

// GET /api/leaderboard/stream: Server-Sent Events for one board. First a `snapshot` (the GET /api/leaderboard answer
// for the top SNAPSHOT_SIZE, with the caller's entry), then a `score` event per fan whose points changed (with their
// rank now) and a `leave` event per fan who left a team board. Every event's id is the change feed's, so a client
// reconnecting with Last-Event-ID gets the changes it missed while the feed still holds them, else a new snapshot.
// Heartbeats, the time limit and the caller's stream slot are lib/http/change-stream.ts's.

export const SNAPSHOT_SIZE = 10;

/** The caller: a Bearer session (native clients), else the session cookie a browser's EventSource sends. */
async function streamCaller(req: Request, bearerUserId: string | null): Promise<string | null> {
  if (bearerUserId) return bearerUserId;
  const token = parseCookies(req.headers.get("cookie"))[SESSION_COOKIE];
  if (!token) return null;
  try {
    const user = await resolveUser(await verifySessionToken(token));
    return isSuspended(user) ? null : user.id; // a suspended account watches as the public does
  } catch {
    return null; // an expired or foreign cookie: the stream is public, it just has no `me`
  }
}

// The ranks of one batch's fans on one board, asked once per batch and board however many streams show it.
const ranksOf = new WeakMap<BoardChange[], Map<string, Promise<(Standing | null)[]>>>();
function standingsFor(batch: BoardChange[], key: string, members: string[]) {
  let byKey = ranksOf.get(batch);
  if (!byKey) ranksOf.set(batch, (byKey = new Map()));
  let standings = byKey.get(key);
  if (!standings) byKey.set(key, (standings = boardStore().then((s) => s.standings(key, members))));
  return standings;
}

async function eventsOf(batch: BoardChange[], key: string): Promise<Uint8Array[]> {
  const mine = batch.filter((c) => c.key === key);
  if (!mine.length) return [];
  const members = [...new Set(mine.filter((c) => c.score !== LEFT).map((c) => c.member))].sort();
  const standings = members.length ? await standingsFor(batch, key, members) : [];
  const now = new Map(members.map((m, i) => [m, standings[i] ?? null]));
  return mine.map((c) => {
    if (c.score === LEFT) return sse("leave", c.id, { fan: { id: c.member } });
    const { points, reachedAt } = unpackScore(c.score);
    const standing = now.get(c.member);
    // The rank as it stands now (a later change in the batch may have moved the fan again: its event follows).
    return sse("score", c.id, { fan: { id: c.member }, points, reachedAt: reachedAt.toISOString(), rank: standing ? standing.ahead + 1 : null });
  });
}

/** `bearerUserId`: the user of the request's Bearer session, if any (the pipeline's `user`). */
export async function openStream(db: DbTx, req: Request, bearerUserId: string | null, q: { board: string; period: string }): Promise<Response> {
  const ref = await boardOrThrow(db, q); // 400, 404 before the stream opens
  const key = boardKey(ref.board, ref.period);
  const feed = await boardFeed();
  const callerId = await streamCaller(req, bearerUserId);
  return feedStream(req, bearerUserId, {
    feed,
    eventsOf: (batch) => eventsOf(batch, key),
    async snapshot(at) {
      const snapshot = await readBoard(db, callerId, { ...q, limit: SNAPSHOT_SIZE });
      return [sse("snapshot", at, { board: snapshot.board, entries: snapshot.entries, me: snapshot.me })];
    },
  });
}
