import { env } from "../env";
import { log } from "../kernel/log";
import { compareIds, type Change, type ChangeFeed } from "../redis/changes";
import { acquireStreamSlot } from "./streams";

// A Server-Sent Events answer that follows a change feed (lib/redis/changes.ts): the live leaderboard and the live
// auction. First a snapshot (the caller's, at the feed's position), or, for a client reconnecting with Last-Event-ID,
// the changes it missed while the feed still holds them; then an event per change as it comes. Every event's id is
// the feed's. A comment heartbeat keeps idle streams open; the stream closes itself before the function's time limit
// (LEADERBOARD_STREAM_MAX_MS, with a `retry:` hint and a `reconnect` event) and clients reconnect. Each stream holds one
// of its caller's stream slots (lib/http/streams.ts: 429 TOO_MANY_STREAMS past the cap), refreshed by the heartbeat
// and released by the cleanup, which runs on every end.

const RETRY_MS = 3_000;
const encoder = new TextEncoder();

/** One SSE event block. */
export const sse = (event: string, id: string | null, data: unknown) =>
  encoder.encode(`${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

export interface FeedStream<C extends Change> {
  feed: ChangeFeed<never, C>;
  /** The events of a batch of changes (the stream's own; others are left out). */
  eventsOf(batch: C[]): Promise<Uint8Array[]> | Uint8Array[];
  /** The first event(s) of a stream that does not resume, `at` the feed's position (the id to give them). */
  snapshot(at: string): Promise<Uint8Array[]>;
  /** Whether a batch holds the stream's last change (it closes once that change's events are out). */
  endWhen?: (batch: C[]) => boolean;
  /** Asked after the snapshot was sent: whether it was all there is (the stream closes). */
  endAfterSnapshot?: () => boolean;
  /** Asked after a resume's replay: whether nothing more can come (the stream closes). */
  endAfterReplay?: () => boolean;
}

/** `bearerUserId`: the user of the request's Bearer session, if any (counts the stream against them, else the address). */
export async function feedStream<C extends Change>(req: Request, bearerUserId: string | null, s: FeedStream<C>): Promise<Response> {
  const lastEventId = req.headers.get("last-event-id");
  const { LEADERBOARD_STREAM_MAX_MS: maxMs, LEADERBOARD_STREAM_HEARTBEAT_MS: heartbeatMs } = env();
  // Last before the stream: nothing after it can throw (were it to, the slot, never refreshed, would lapse).
  const slot = await acquireStreamSlot(req, bearerUserId, { heartbeatMs });
  const { feed } = s;

  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let sentUpTo = "0-0";
      const send = (chunk: Uint8Array) => {
        if (!closed) controller.enqueue(chunk);
      };
      const sendAll = async (batch: C[]) => {
        for (const chunk of await s.eventsOf(batch)) send(chunk);
        // A final change (the auction's end) closes the stream once its event is out.
        if (s.endWhen?.(batch)) cleanup();
      };
      // Changes that arrive while the snapshot or the replay is being sent wait here, in order.
      let queue: Promise<void> = Promise.resolve();
      const forward = (batch: C[]) => {
        queue = queue.then(async () => {
          const fresh = batch.filter((c) => compareIds(c.id, sentUpTo) > 0);
          if (!fresh.length) return;
          await sendAll(fresh);
          sentUpTo = fresh[fresh.length - 1]!.id;
        });
        queue.catch((error: unknown) => log("warn", { msg: "stream event failed", error: String(error) }));
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
          if (missed.length) await sendAll(missed);
          if (missed.length) sentUpTo = missed[missed.length - 1]!.id;
          if (s.endAfterReplay?.()) return cleanup();
        } else {
          // The feed's position first, then the snapshot: a change between the two comes as an event after it.
          const at = await feed.lastId();
          for (const chunk of await s.snapshot(at)) send(chunk);
          if (s.endAfterSnapshot?.()) return cleanup();
          sentUpTo = at;
          const since = await feed.since(at);
          if (since?.length) forward(since);
        }
      });
      queue.catch((error: unknown) => {
        log("warn", { msg: "stream start failed", error: String(error) });
        cleanup();
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
