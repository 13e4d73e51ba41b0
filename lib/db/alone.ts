import { rawTransaction, type Db } from "./raw";

// A job that must run once at a time (Vercel Cron may start the same path twice at once): the run holds a
// transaction-scoped advisory lock on one connection while `work` runs on others; a second run that cannot take it
// does nothing. Transaction-scoped on purpose: behind a transaction pooler a session-level lock would stay with a
// server connection someone else gets next (docs/decisions/0071-transaction-pooler-ready.md). The lock ends with the
// transaction, also when the process dies (PostgreSQL ends the session's transaction with the connection).

/** Runs `work` unless another run of `job` is under way; answers undefined then. */
export function unlessRunning<T>(db: Db, job: string, work: () => Promise<T>): Promise<T | undefined> {
  return rawTransaction(
    db,
    async (tx) => {
      const [row] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${`job:${job}`})) AS taken`;
      return row?.taken ? work() : undefined;
    },
    // (A script's client: Prisma's interactive transaction must outlast the work.)
    { maxWait: 10_000, timeout: 15 * 60_000 },
  );
}
