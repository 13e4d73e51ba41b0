import type { RepSource } from "../generated/prisma/enums";
import type { DbTx } from "../db/client";
import type { RepEntry } from "../generated/prisma/client";

// The Rep the server grants: the earn kinds (amounts, sources, scopes are the server's) and grantOnce, the one
// place such an entry is written.

// What a client may claim through POST /api/v1/engage/rep/earn, and how often. Amounts and sources are
// chosen here, never by the client. "scope" says what a grant counts against:
//   once      — once per user, ever
//   daily     — once per user per UTC day
//   perTarget — once per user per targetId, at most dailyCap such grants per UTC day
// "requires" is a condition the server checks on the user's row at claim time (409 EARN_CONDITION_NOT_MET):
//   profileComplete — handle, display name and avatar set (missingProfileFields in lib/users/service.ts)
//   notificationsOn — at least one notification setting on (notificationsOn in lib/users/service.ts)
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

/** Awarded by the server itself (amount and Rep type chosen server-side); refused on the earn route. */
export const SERVER_AWARDED_KINDS = ["arena_check_in", "daily_quest_completion", "game_rating"] as const;

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

type Granted = { entry: RepEntry; balance: number };

/**
 * The one place Rep of a client earn kind is written: a ledger entry with the server-chosen amount, source and
 * reason from CLIENT_EARN_KINDS, and the user's balance raised by that amount. The grant key is the kind itself
 * (what a "once" kind counts against) unless a claim names another; the entry is inserted with ON CONFLICT DO
 * NOTHING on the unique (user_id, grant_key) and (user_id, idempotency_key), so a key already used grants nothing
 * and answers null. Callers hold the user's row lock (SELECT … FOR UPDATE) for the transaction: the earn route
 * and the profile and settings writes that award profile_completed and notifications_enabled all serialize on it.
 */
export async function grantOnce(tx: DbTx, userId: string, kind: OnceEarnKind): Promise<Granted | null>;
export async function grantOnce(tx: DbTx, userId: string, kind: ClientEarnKind, claim: GrantClaim, now: Date): Promise<Granted | null>;
export async function grantOnce(tx: DbTx, userId: string, kind: ClientEarnKind, claim?: GrantClaim, now = new Date()): Promise<Granted | null> {
  const rule = CLIENT_EARN_KINDS[kind];
  if (!claim && rule.scope !== "once") throw new Error(`${kind} is not a once-per-user kind; its grant key must be given.`);
  const [entry] = await tx.repEntry.createManyAndReturn({
    data: [
      {
        userId,
        source: rule.source,
        amount: rule.amount,
        reason: rule.reason,
        earnKind: kind,
        targetId: claim?.targetId ?? null,
        grantKey: claim?.grantKey ?? kind,
        idempotencyKey: claim?.idempotencyKey ?? null,
        requestHash: claim?.requestHash ?? null,
        createdAt: now,
      },
    ],
    skipDuplicates: true,
  });
  if (!entry) return null;
  const user = await tx.user.update({
    where: { id: userId },
    data: { repBalance: { increment: rule.amount } },
    select: { repBalance: true },
  });
  return { entry, balance: user.repBalance };
}
