import type { DbTx } from "../db/client";
import type { RepEntry } from "../generated/prisma/client";
import { CLIENT_EARN_KINDS, type ClientEarnKind } from "./earn-kinds";

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
