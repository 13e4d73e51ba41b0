import { parseCookies, SESSION_COOKIE } from "../auth/cookies";
import { verifySessionToken } from "../auth/tokens";
import { isSuspended, resolveUser } from "../auth/users";
import type { DbTx } from "../db/client";
import { env } from "../env";
import { log } from "../kernel/log";
import { acquireStreamSlot } from "../http/streams";
import { boardFeed, compareIds, type BoardChange } from "./feed";
import { boardKey, boardOrThrow, LEFT, readBoard } from "./service";
import { unpackScore } from "./score";
import { boardStore, type Standing } from "./store";

// GET /api/leaderboard/stream: Server-Sent Events for one board. First a `snapshot` (the GET /api/leaderboard answer
// for the top SNAPSHOT_SIZE, with the caller's entry), then a `score` event per fan whose points changed (with their
// rank now) and a `leave` event per fan who left a team board. Every event's id is the change feed's, so a client
// reconnecting with Last-Event-ID gets the changes it missed while the feed still holds them, else a new snapshot.
// A comment heartbeat keeps idle streams open; the stream closes itself before the function's time limit, with a
// `retry:` hint, and clients reconnect. Each stream holds one of its caller's stream slots (lib/http/streams.ts: 429
// TOO_MANY_STREAMS past the cap), refreshed by the heartbeat and released by the cleanup, which runs on every end.

export const SNAPSHOT_SIZE = 10;
const RETRY_MS = 3_000;

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

const encoder = new TextEncoder();
const sse = (event: string, id: string | null, data: unknown) => encoder.encode(`${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

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
  const lastEventId = req.headers.get("last-event-id");
  const { LEADERBOARD_STREAM_MAX_MS: maxMs, LEADERBOARD_STREAM_HEARTBEAT_MS: heartbeatMs } = env();
  const callerId = await streamCaller(req, bearerUserId);
  // Last before the stream: nothing after it can throw (were it to, the slot, never refreshed, would lapse).
  const slot = await acquireStreamSlot(req, bearerUserId, { heartbeatMs });

  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let sentUpTo = "0-0";
      const send = (chunk: Uint8Array) => {
        if (!closed) controller.enqueue(chunk);
      };
      // Changes that arrive while the snapshot or the replay is being sent wait here, in order.
      let queue: Promise<void> = Promise.resolve();
      const forward = (batch: BoardChange[]) => {
        queue = queue.then(async () => {
          const fresh = batch.filter((c) => compareIds(c.id, sentUpTo) > 0);
          if (!fresh.length) return;
          for (const chunk of await eventsOf(fresh, key)) send(chunk);
          sentUpTo = fresh[fresh.length - 1]!.id;
        });
        queue.catch((error: unknown) => log("warn", { msg: "leaderboard stream event failed", error: String(error) }));
      };
      const unsubscribe = feed.subscribe(forward);
      const heartbeat = setInterval(() => {
        send(encoder.encode(": heartbeat\n\n"));
        slot.refresh();
      }, heartbeatMs);
      const timeLimit = setTimeout(() => {
        send(encoder.encode(`retry: ${RETRY_MS}\nevent: reconnect\ndata: {}\n\n`));
        cleanup();
      }, maxMs);
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(timeLimit);
        slot.release();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      req.signal.addEventListener("abort", () => cleanup());
      if (req.signal.aborted) cleanup(); // the client left while the stream was being set up

      queue = queue.then(async () => {
        send(encoder.encode(`retry: ${RETRY_MS}\n\n`));
        const missed = lastEventId ? await feed.since(lastEventId) : null;
        if (missed) {
          sentUpTo = lastEventId!;
          for (const chunk of await eventsOf(missed, key)) send(chunk);
          if (missed.length) sentUpTo = missed[missed.length - 1]!.id;
        } else {
          // The feed's position first, then the board: a change between the two comes as an event after the snapshot.
          const at = await feed.lastId();
          const snapshot = await readBoard(db, callerId, { ...q, limit: SNAPSHOT_SIZE });
          send(sse("snapshot", at, { board: snapshot.board, entries: snapshot.entries, me: snapshot.me }));
          sentUpTo = at;
          const since = await feed.since(at);
          if (since?.length) forward(since);
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // Proxies (nginx) must pass events on as they come.
      "X-Accel-Buffering": "no",
    },
  });
}
