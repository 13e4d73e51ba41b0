import { Prisma } from "../generated/prisma/client";

// Statements composed of other modules' parts. The hottest writes are one statement each (docs/decisions/0010): a
// module's own CTEs plus parts other modules own (Rep's credit, a quest's completion). The rules of such a statement:
//
// 1. A part is built by its owner and returned as Ctes: its SQL for the WITH list and the names of the CTEs a caller
//    may read (`award.name.raised`), never written as string literals by the caller.
// 2. A part that updates a row per user (the credit raises users.rep_balance) takes its rows as OncePerUser: each
//    user at most once in the statement, since PostgreSQL modifies one row once per statement. A batch keyed by user
//    (lib/db/batch.ts keyOf) or a single row gives that; the caller says so with oncePerUser().
// 3. What the statement changed outside the database follows in the caller's request, after the statement: a Rep
//    credit moves the leaderboards (lib/core/rep/grants.ts batchRepWrites notes it for each caller whose credit took).
// 4. The statement lives in its module's writes.ts (lib/features/quests/writes.ts, lib/features/games/writes.ts), one per hot write.

/** Parts of one statement (CTEs) a module owns, with the names of the CTEs a caller may read. */
export interface Ctes<Names extends string> {
  /** The CTEs, for a WITH list (`WITH …, ${part.sql}`). */
  sql: Prisma.Sql;
  /** Each readable CTE's name, for FROM and JOIN. */
  name: Record<Names, Prisma.Sql>;
}

/** Builds a Ctes: `names` maps each readable output to its CTE's name; `build` writes the SQL with them. */
export function ctes<N extends string>(names: Record<N, string>, build: (name: Record<N, Prisma.Sql>) => Prisma.Sql): Ctes<N> {
  const name = Object.fromEntries(Object.entries<string>(names).map(([k, v]) => [k, Prisma.raw(v)])) as Record<N, Prisma.Sql>;
  return { sql: build(name), name };
}

declare const oncePerUserBrand: unique symbol;
/** Rows for a part that updates a row per user: each user at most once (rule 2). */
export type OncePerUser = Prisma.Sql & { readonly [oncePerUserBrand]: true };

/** The caller's word that `rows` hold each user at most once: one row, or a batch keyed by user. */
export const oncePerUser = (rows: Prisma.Sql): OncePerUser => rows as OncePerUser;
