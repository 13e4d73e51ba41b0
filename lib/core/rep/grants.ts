import type { RepSource } from "../../generated/prisma/enums";
import type { Db, DbTx } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { ctes, oncePerUser, type Ctes, type OncePerUser } from "../../db/fragments";
import { int8, type Int8, type RawDb } from "../../db/raw";
import { Prisma, type RepEntry } from "../../generated/prisma/client";
import { uuidv7 } from "../../db/ids";
import { noteBoardsMoved } from "./leaderboard/moves";
import { SPENDING_KINDS } from "./kinds";

// The Rep the server grants: the earn kinds (amounts, sources, scopes are the server's) and grantOnce, the one
// place such an entry is written.

// What a client may claim through POST /api/v1/engage/rep/earn, and how often. Amounts and sources are
// chosen here, never by the client. "scope" says what a grant counts against:
//   once      — once per user, ever
//   daily     — once per user per UTC day
//   perTarget — once per user per targetId, at most dailyCap such grants per UTC day
// "requires" is a condition the server checks on the user's row at claim time (409 EARN_CONDITION_NOT_MET):
//   profileComplete — handle, display name and avatar set (missingProfileFields in lib/core/rep/requirements.ts)
//   notificationsOn — at least one notification setting on (notificationsOn in lib/core/rep/requirements.ts)
// Those two are also awarded by the server itself, once, from the write that meets them: PATCH /api/user/profile
// leaving the profile complete, PATCH /api/user/settings turning a notification setting on (grantOnce below).
export interface EarnKind {
  amount: number;
  source: RepSource;
  reason: string;
  scope: "once" | "daily" | "perTarget";
  dailyCap?: number;
  requires?: "profileComplete" | "notificationsOn";
}

export const CLIENT_EARN_KINDS = {
  daily_visit: { amount: 5, source: "serviceDirect", reason: "Daily visit", scope: "daily" },
  profile_completed: { amount: 50, source: "serviceDirect", reason: "Completed your profile", scope: "once", requires: "profileComplete" },
  notifications_enabled: { amount: 20, source: "serviceDirect", reason: "Turned on notifications", scope: "once", requires: "notificationsOn" },
  article_read: { amount: 2, source: "fanAmp", reason: "Read an article", scope: "perTarget", dailyCap: 10 },
  post_shared: { amount: 10, source: "fanAmp", reason: "Shared a post", scope: "perTarget", dailyCap: 5 },
} as const satisfies Record<string, EarnKind>;

/** Awarded by the server itself when the action happens, with server-chosen amount and Rep type; refused on the earn route. */
export const SERVER_AWARDED_KINDS = ["arena_check_in", "daily_quest_completion", "game_rating"] as const;

/** Fixed server awards. Quest completions (daily_quest_completion, quest_completion) take theirs from the quest row. */
export const SERVER_AWARDS = {
  arena_check_in: { amount: 25, source: "club", reason: "Arena check-in" },
  game_rating: { amount: 15, source: "club", reason: "Rated the players of a game" },
} as const satisfies Record<string, Pick<EarnKind, "amount" | "source" | "reason">>;

export type ClientEarnKind = keyof typeof CLIENT_EARN_KINDS;
export const CLIENT_EARN_KIND_NAMES = Object.keys(CLIENT_EARN_KINDS) as ClientEarnKind[];

/** The kinds granted once per user, ever (grant key: the kind itself): the ones the server may award on its own. */
export type OnceEarnKind = {
  [K in ClientEarnKind]: (typeof CLIENT_EARN_KINDS)[K]["scope"] extends "once" ? K : never;
}[ClientEarnKind];

/** What a claim through the earn route adds to a grant; server awards leave it out. */
export interface GrantClaim {
  grantKey: string;
  targetId?: string;
  idempotencyKey: string;
  requestHash: string;
}

/** A ledger entry with its amount as a number (lib/db/raw.ts: int8). */
export type Entry = Omit<RepEntry, "amount"> & { amount: number };
type Granted = { entry: Entry; balance: number };
type GrantedRow = Int8<Entry & { balance: number }, "amount" | "balance">;

/** One ledger credit the server decided on: what, how much, which Rep type, and the key it may be granted under once. */
export interface Award {
  earnKind: string;
  amount: number;
  source: RepSource;
  reason: string;
  /** What the grant counts against, unique per user (e.g. "arena_check_in:tm_hch:2026-11-23"): a second award is a no-op. */
  grantKey: string;
  targetId?: string | null;
  idempotencyKey?: string | null;
  requestHash?: string | null;
  createdAt?: Date;
}

/** The users column totalling what each source earned (kept with rep_balance by the statements below). */
const EARNED: Record<RepSource, Prisma.Sql> = {
  fanAmp: Prisma.raw("rep_earned_fan_amp"),
  club: Prisma.raw("rep_earned_club"),
  playerAmp: Prisma.raw("rep_earned_player_amp"),
  serviceDirect: Prisma.raw("rep_earned_service_direct"),
};

const ENTRY_COLUMNS = Prisma.sql`id, user_id AS "userId", source, amount, reason, earn_kind AS "earnKind", target_id AS "targetId",
  grant_key AS "grantKey", idempotency_key AS "idempotencyKey", request_hash AS "requestHash", created_at AS "createdAt"`;

// Without an idempotency key the grant key is the only conflict an entry can meet (its id is new): naming it spares
// PostgreSQL checking the other unique indexes before the insert.
const GRANT_KEY = Prisma.sql`(user_id, grant_key)`;

/**
 * The one place Rep is credited, as two CTEs for a statement (lib/db/fragments.ts): `entries` inserts the entry with
 * ON CONFLICT DO NOTHING on the unique (user_id, grant_key) and (user_id, idempotency_key), and `raised` raises the
 * balance only if it was inserted (with the source's earned total), answering (id, rep_balance). The caller notes the
 * move (noteBoardsMoved) when it took. `when` gates the credit on the rest of the statement (e.g. "the rating row was
 * inserted"). A statement holding these must not update the user's row elsewhere (one row is modified once per
 * statement).
 */
export function awardCtes(userId: string, a: Award, when: Prisma.Sql = Prisma.sql`true`): Ctes<"entries" | "raised"> {
  const at = a.createdAt ?? new Date();
  return awardRowsCtes(
    oncePerUser(Prisma.sql`SELECT ${uuidv7(at.getTime())}::uuid AS id, ${userId}::uuid AS user_id, ${a.targetId ?? null}::text AS target_id,
                      ${a.grantKey}::text AS grant_key, ${at}::timestamptz AS created_at WHERE ${when}`),
    a,
  );
}

/** What awardRowsCtes credits alike on every row (the rows hold their own user, target, grant key and time). */
export type RowsAward = Omit<Award, "grantKey" | "targetId" | "createdAt">;

/**
 * awardCtes for many credits at once: `rows` is a query with columns id (uuid), user_id (uuid), target_id, grant_key
 * and created_at, each user at most once (`raised` raises each user's row once). `raised` answers (id, rep_balance)
 * per credited user.
 */
export function awardRowsCtes(rows: OncePerUser, a: RowsAward): Ctes<"entries" | "raised"> {
  if (!Number.isInteger(a.amount) || a.amount < 0) throw new Error(`award: amount must be a non-negative integer (${a.amount})`);
  return ctes(
    { entries: "rep_entry", raised: "rep_raised" },
    (name) => Prisma.sql`${name.entries} AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, idempotency_key, request_hash, created_at)
      SELECT r.id, r.user_id, ${a.source}::"RepSource", ${a.amount}, ${a.reason}, ${a.earnKind}, r.target_id, r.grant_key,
             ${a.idempotencyKey ?? null}, ${a.requestHash ?? null}, r.created_at
      FROM (${rows}) r
      ON CONFLICT ${a.idempotencyKey ? Prisma.empty : GRANT_KEY} DO NOTHING
      RETURNING *
    ), ${name.raised} AS (
      UPDATE users u SET rep_balance = rep_balance + ${a.amount}, ${EARNED[a.source]} = ${EARNED[a.source]} + ${a.amount}
      FROM ${name.entries} e WHERE u.id = e.user_id RETURNING u.id, u.rep_balance
    )`,
  );
}

/**
 * A batched write (lib/db/batch.ts) whose statement credits Rep with awardRowsCtes: keyed by user, so each user is in
 * a statement at most once (the OncePerUser the credit needs), and each caller's leaderboard move noted in its own
 * request when its credit took (`balance` not null). The statement itself lives in its module's writes.ts.
 */
export function batchRepWrites<I extends { userId: string }, O extends { balance: number | null } | null>(
  write: (db: Db, items: I[]) => Promise<O[]>,
): (db: Db, item: I) => Promise<O> {
  const call = batchConcurrentCallsPerClient(write, { keyOf: (item: I) => item.userId, max: 64 });
  return async (db, item) => {
    const written = await call(db, item);
    if (written?.balance != null) noteBoardsMoved(item.userId);
    return written;
  };
}

/**
 * Credits Rep in one statement (awardCtes). A key already used grants nothing and answers null, so a retried or
 * concurrent award is granted once. Callers that also check a condition first hold the user's row lock (lockUser).
 */
export async function award(tx: RawDb, userId: string, a: Award): Promise<Granted | null> {
  const credit = awardCtes(userId, a);
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH ${credit.sql}
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM ${credit.name.raised}) AS balance FROM ${credit.name.entries}`;
  if (!row) return null;
  noteBoardsMoved(userId);
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}

/** One ledger debit: spending Rep (a reward) or a staff reversal. `amount` is how much to take (positive); the entry's is negative. */
export type Debit = Omit<Award, "idempotencyKey" | "requestHash">;

/**
 * Takes Rep from the spendable balance in one statement: a conditional UPDATE … WHERE rep_balance >= amount (the
 * balance can never go negative, also held by a CHECK) and, only if it took, a negative ledger entry. Answers null
 * when the balance is short; a grant key already used is a unique violation (the caller's own rule refuses first).
 */
export async function debit(tx: DbTx, userId: string, d: Debit): Promise<Granted | null> {
  if (!Number.isInteger(d.amount) || d.amount <= 0) throw new Error(`debit: amount must be a positive integer (${d.amount})`);
  const at = d.createdAt ?? new Date();
  // Spending adds to rep_spent; a staff reversal takes back from what its source earned.
  const total = SPENDING_KINDS.includes(d.earnKind)
    ? Prisma.sql`rep_spent = rep_spent + ${d.amount}`
    : Prisma.sql`${EARNED[d.source]} = ${EARNED[d.source]} - ${d.amount}`;
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH taken AS (
      UPDATE users SET rep_balance = rep_balance - ${d.amount}, ${total}
      WHERE id = ${userId}::uuid AND rep_balance >= ${d.amount} RETURNING rep_balance
    ), entry AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, created_at)
      SELECT ${uuidv7(at.getTime())}::uuid, ${userId}::uuid, ${d.source}::"RepSource", ${-d.amount}, ${d.reason}, ${d.earnKind}, ${d.targetId ?? null},
             ${d.grantKey}, ${at}::timestamptz
      FROM taken
      RETURNING *
    )
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM taken) AS balance FROM entry`;
  if (!row) return null;
  noteBoardsMoved(userId);
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}

/**
 * Grants Rep of a client earn kind (amount, source and reason from CLIENT_EARN_KINDS) through award(). The grant key
 * is the kind itself (what a "once" kind counts against) unless a claim names another. The earn route and the
 * profile and settings writes that award profile_completed and notifications_enabled all hold the user's row lock.
 */
export async function grantOnce(tx: DbTx, userId: string, kind: OnceEarnKind): Promise<Granted | null>;
export async function grantOnce(tx: DbTx, userId: string, kind: ClientEarnKind, claim: GrantClaim, now: Date): Promise<Granted | null>;
export async function grantOnce(tx: DbTx, userId: string, kind: ClientEarnKind, claim?: GrantClaim, now = new Date()): Promise<Granted | null> {
  const rule = CLIENT_EARN_KINDS[kind];
  if (!claim && rule.scope !== "once") throw new Error(`${kind} is not a once-per-user kind; its grant key must be given.`);
  return award(tx, userId, {
    earnKind: kind,
    amount: rule.amount,
    source: rule.source,
    reason: rule.reason,
    grantKey: claim?.grantKey ?? kind,
    targetId: claim?.targetId,
    idempotencyKey: claim?.idempotencyKey,
    requestHash: claim?.requestHash,
    createdAt: now,
  });
}

/**
 * Gives back Rep a spending debit took (a failed reward fulfilment): a positive entry under `grantKey` (ON CONFLICT
 * on the unique (user_id, grant_key) DO NOTHING, so a retried or concurrent refund gives back once) and, only if it
 * was inserted, the balance raised and rep_spent lowered by the same amount (earned totals untouched: a refund is
 * spending undone, not earning). Answers null when the key was used already.
 */
export async function refundSpending(tx: RawDb, userId: string, r: Debit): Promise<Granted | null> {
  if (!Number.isInteger(r.amount) || r.amount <= 0) throw new Error(`refundSpending: amount must be a positive integer (${r.amount})`);
  const at = r.createdAt ?? new Date();
  const [row] = await tx.$queryRaw<GrantedRow[]>`
    WITH entry AS (
      INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, target_id, grant_key, created_at)
      VALUES (${uuidv7(at.getTime())}::uuid, ${userId}::uuid, ${r.source}::"RepSource", ${r.amount}, ${r.reason}, ${r.earnKind}, ${r.targetId ?? null},
              ${r.grantKey}, ${at}::timestamptz)
      ON CONFLICT ${GRANT_KEY} DO NOTHING
      RETURNING *
    ), given AS (
      UPDATE users u SET rep_balance = rep_balance + ${r.amount}, rep_spent = rep_spent - ${r.amount}
      FROM entry e WHERE u.id = e.user_id RETURNING u.rep_balance
    )
    SELECT ${ENTRY_COLUMNS}, (SELECT rep_balance FROM given) AS balance FROM entry`;
  if (!row) return null;
  noteBoardsMoved(userId);
  const { balance, ...entry } = int8(row, ["amount", "balance"]);
  return { entry, balance };
}
