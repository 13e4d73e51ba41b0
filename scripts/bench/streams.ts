// Live streams: STREAMS clients on the global leaderboard's stream, then STREAM_CHANGES score changes one after
// another; each change's delay from its write to every stream, and the server's memory per open stream.
import { readFileSync } from "node:fs";
import { createDb } from "../../lib/db/client";
import { moveBoards } from "../../lib/core/rep/leaderboard/service";
import { award } from "../../lib/core/rep/grants";
import { DB_URL } from "./common";
import { BOARD_SUB } from "./leaderboard";

const STREAMS = 1_000;
const STREAM_CHANGES = 20;

/** The resident memory of process `pid` in bytes (Linux /proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/**
 * Live streams: STREAMS clients on the global board, then STREAM_CHANGES score changes made one after another; how
 * long each change took from its write to reaching each stream, and the server's memory per open stream.
 */
export async function measureStreams(base: string, pid: number) {
  const rssBefore = rssOf(pid);
  const aborts: AbortController[] = [];
  const arrivals = new Map<string, number[]>(); // fan id → arrival times
  const readers = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      const abort = new AbortController();
      aborts.push(abort);
      // One address per client, as STREAMS fans would come: one address may hold only STREAMS_PER_CALLER streams.
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const res = await fetch(`${base}/api/leaderboard/stream?board=global&period=all`, { signal: abort.signal, headers: { "x-forwarded-for": address } });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      let snapshot: () => void = () => {};
      const ready = new Promise<void>((resolve) => (snapshot = resolve));
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let i;
            while ((i = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, i);
              buffer = buffer.slice(i + 2);
              if (block.includes("event: snapshot")) snapshot();
              const m = /event: score\ndata: (.*)/.exec(block);
              if (m) {
                const fanId = (JSON.parse(m[1]!) as { fan: { id: string } }).fan.id;
                arrivals.set(fanId, [...(arrivals.get(fanId) ?? []), performance.now()]);
              }
            }
          }
        } catch {
          // aborted
        }
      })();
      return ready;
    }),
  );
  await Promise.all(readers);
  const bytesPerStream = (rssOf(pid) - rssBefore) / STREAMS;
  const db = createDb(DB_URL, 2);
  const fans = await db.user.findMany({
    where: { externalId: { in: Array.from({ length: STREAM_CHANGES }, (_, i) => BOARD_SUB(500_000 + i)) } },
    select: { id: true },
  });
  const delays: number[] = [];
  for (const { id } of fans) {
    await db.$transaction((tx) =>
      award(tx, id, { earnKind: "bench_stream", amount: 1, source: "club", reason: "Bench stream", grantKey: `bench_stream:${Date.now()}` }),
    );
    const written = performance.now();
    await moveBoards([id], new Date(), db);
    for (let waited = 0; (arrivals.get(id)?.length ?? 0) < STREAMS && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    delays.push(...(arrivals.get(id) ?? []).map((t) => t - written));
  }
  for (const a of aborts) a.abort();
  await db.$disconnect();
  const sorted = delays.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), delivered: sorted.length, expected: STREAMS * fans.length, bytesPerStream };
}

export function reportStreams(streams: Awaited<ReturnType<typeof measureStreams>>) {
  console.log(
    `  stream: ${STREAMS} clients on the global board, ${STREAM_CHANGES} changes: ${streams.delivered}/${streams.expected} events delivered, write → event p50 ${streams.p50.toFixed(0)} ms, p99 ${streams.p99.toFixed(0)} ms ${streams.p99 < 1000 ? "(ok, target p99 < 1 s)" : "(ABOVE the 1 s target)"}; server memory ${(streams.bytesPerStream / 1024).toFixed(0)} KiB per open stream`,
  );
  if (streams.delivered < streams.expected) process.exitCode = 1;
}
