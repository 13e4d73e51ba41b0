import type { RepSource } from "../../generated/prisma/enums";
import type { Db, DbTx } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import type { RawDb } from "../../db/raw";
import { noteBoardsMoved } from "./leaderboard/moves";
import { insertCredit, insertDebit, insertRefund, type Award, type Debit, type Granted } from "./writes";

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
 * Credits Rep in one statement (awardCtes, writes.ts). A key already used grants nothing and answers null, so a retried or
 * concurrent award is granted once. Callers that also check a condition first hold the user's row lock (lockUser).
 */
export async function award(tx: RawDb, userId: string, a: Award): Promise<Granted | null> {
  const granted = await insertCredit(tx, userId, a);
  if (granted) noteBoardsMoved(userId);
  return granted;
}

/**
 * Takes Rep from the spendable balance in one statement: a conditional UPDATE … WHERE rep_balance >= amount (the
 * balance can never go negative, also held by a CHECK) and, only if it took, a negative ledger entry. Answers null
 * when the balance is short; a grant key already used is a unique violation (the caller's own rule refuses first).
 */
export async function debit(tx: DbTx, userId: string, d: Debit): Promise<Granted | null> {
  if (!Number.isInteger(d.amount) || d.amount <= 0) throw new Error(`debit: amount must be a positive integer (${d.amount})`);
  const granted = await insertDebit(tx, userId, d);
  if (granted) noteBoardsMoved(userId);
  return granted;
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
  const granted = await insertRefund(tx, userId, r);
  if (granted) noteBoardsMoved(userId);
  return granted;
}
