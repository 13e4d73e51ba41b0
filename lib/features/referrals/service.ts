import { db as defaultDb, type Db, type DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { award, debit } from "../../core/rep/service";
import { log } from "../../kernel/log";
import {
  isErased,
  lockRewardedReferral,
  lockUsersInIdOrder,
  monthUsage,
  referralCandidate,
  referralsPage,
  referralTotals,
  referrerCreditOf,
  unsettledReferees,
  type ReferralRow,
} from "./queries";
import { insertReferralReward, markClawedBack } from "./writes";
import { CLAWBACK_WINDOW_DAYS, MONTHLY_CAP, monthOf, QUALIFY_WINDOW_DAYS, REFEREE_REP, REFERRAL_REFEREE, REFERRAL_REFERRER, REFERRER_REP } from "./rules";
import { requestState } from "../../kernel/request-scope";

// Referrals (docs/domains/referrals.md, decision 0051): a fan who joined with an invite (lib/features/invites'
// invite_redemptions) qualifies once onboarding is complete and a first quest is completed, within
// QUALIFY_WINDOW_DAYS of joining. Qualifying is settled once, in its own transaction after the write that met it
// (noteReferralProgress: the hook), under both users' row locks in id order: the referral_rewards row (primary key: the
// referee) is the claim, both credits go through lib/core/rep's award() with grant keys, and the referrer's monthly cap is
// counted under the referrer's lock, so concurrent qualifications of many referees of one referrer never pass it.

export type Qualified = { state: "qualified" | "rewarded"; referrerRep: number; refereeRep: number } | null;

/**
 * Settles the referee's referral if they qualify and it is not settled yet: one transaction, both users' rows locked
 * (FOR NO KEY UPDATE, as lockUser) in id order, then the claim re-read under them. The referee is always credited
 * REFEREE_REP (grant key referral:referee); the referrer REFERRER_REP (grant key referral:<refereeId>) only while
 * their rewards this calendar month (UTC) are under MONTHLY_CAP, else the state is "qualified" and the referrer gets
 * nothing. An erased referrer gets nothing either. Null when there is nothing to do. Idempotent and race-free.
 */
export async function qualifyReferral(refereeId: string, db: Db = defaultDb, now = new Date()): Promise<Qualified> {
  const seen = await referralCandidate(db, refereeId);
  if (!seen || !seen.ready || seen.settled) return null;
  const referrerId = seen.referrerId;
  return db.$transaction(async (tx) => {
    await lockUsersInIdOrder(tx, refereeId, referrerId);
    const again = await referralCandidate(tx, refereeId);
    if (!again || !again.ready || again.settled) return null;

    const month = monthOf(now);
    const erased = await isErased(tx, referrerId);
    const underCap = !erased && (await monthUsage(tx, referrerId, month)) < MONTHLY_CAP;

    await award(tx, refereeId, {
      earnKind: REFERRAL_REFEREE,
      amount: REFEREE_REP,
      source: "serviceDirect",
      reason: "Joined with an invite",
      grantKey: "referral:referee",
      targetId: referrerId,
      createdAt: now,
    });
    const credited = underCap
      ? await award(tx, referrerId, {
          earnKind: REFERRAL_REFERRER,
          amount: REFERRER_REP,
          source: "serviceDirect",
          reason: "A fan you invited qualified",
          grantKey: `referral:${refereeId}`,
          targetId: refereeId,
          createdAt: now,
        })
      : null;
    const referrerRep = credited ? REFERRER_REP : 0;
    const state = credited ? "rewarded" : "qualified";
    await insertReferralReward(tx, { refereeId, referrerId, state, month: credited ? month : null, referrerRep, refereeRep: REFEREE_REP, now });
    return { state, referrerRep, refereeRep: REFEREE_REP } as const;
  }, txOptions());
}

/** Referees one sweep settles at most; the rest wait for the next run. */
export const SWEEP_BATCH = 500;

/**
 * GET /api/cron/referrals-settle: settles every referral whose referee qualified but the hook missed (a qualifying
 * write outside a request, or a settlement that failed: docs/domains/referrals.md), each through qualifyReferral, so
 * a sweep racing the hook or another sweep settles nothing twice. A failure of one (a deadlock with that referee's
 * erasure) is logged and left to the next run.
 */
export async function settleMissedReferrals(db: Db = defaultDb, now = new Date()) {
  const referees = await unsettledReferees(db, SWEEP_BATCH);
  let settled = 0;
  let failed = 0;
  for (const refereeId of referees) {
    try {
      if (await qualifyReferral(refereeId, db, now)) settled++;
    } catch (error) {
      failed++;
      log("warn", { msg: "referral sweep: settlement failed", refereeId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { checked: referees.length, settled, failed };
}

/**
 * The account erasure's part (lib/operations/erasure/service.ts), in its transaction: when the erased fan was a rewarded
 * referee whose deletion was requested within CLAWBACK_WINDOW_DAYS of joining, the referrer's credit is reversed the
 * way staff reverse one (lib/operations/admin's reverseEntry): a compensating debit, earnKind "reversal", targetId the credit,
 * grant key reversal:<credit id> (so it can never be reversed twice, by staff or by this), never an edit of the
 * credit; at most the referrer's balance (it never goes negative). The row moves to clawed_back once: its state is
 * the condition, read under its lock.
 */
export async function clawBackReferral(tx: DbTx, refereeId: string): Promise<number | null> {
  const row = await lockRewardedReferral(tx, refereeId);
  if (!row || !row.within || row.amount <= 0) return null;
  await lockUser(tx, row.referrerId);
  const credit = await referrerCreditOf(tx, row.referrerId, refereeId);
  // Staff reversed the credit already: nothing is left to take back.
  const take = credit && !credit.reversed ? Math.min(row.amount, Number(credit.balance)) : 0;
  if (credit && take > 0) {
    await debit(tx, row.referrerId, {
      earnKind: "reversal",
      amount: take,
      source: "serviceDirect",
      reason: "Reversed: a fan you invited deleted their account within 30 days",
      grantKey: `reversal:${credit.id}`,
      targetId: credit.id,
    });
  }
  await markClawedBack(tx, refereeId, take);
  return take;
}

const toReferral = (r: ReferralRow) => ({
  referee: { id: r.refereeId, handle: r.handle, displayName: r.displayName, avatarUrl: r.avatarUrl },
  state: r.state,
  joinedAt: r.joinedAt.toISOString(),
  qualifiedAt: r.qualifiedAt?.toISOString() ?? null,
  referrerRep: r.referrerRep,
  clawedBackAt: r.clawedBackAt?.toISOString() ?? null,
  clawedBackRep: r.clawedBackRep,
});

/** GET /api/invites/me/referrals: a keyset page of the caller's referees, with the totals and this month's cap usage. */
export async function listReferrals(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }, now = new Date()) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const month = monthOf(now);
  const [rows, totals, used] = await Promise.all([referralsPage(db, userId, after, limit + 1), referralTotals(db, userId), monthUsage(db, userId, month)]);
  const page = keysetPage("referrals", rows, limit, (last) => encodeCursor(last.joinedAt.getTime(), last.refereeId), toReferral);
  return {
    ...page,
    totals,
    cap: { month, limit: MONTHLY_CAP, used, remaining: Math.max(0, MONTHLY_CAP - used) },
    rules: { referrerRep: REFERRER_REP, refereeRep: REFEREE_REP, qualifyWindowDays: QUALIFY_WINDOW_DAYS, clawbackWindowDays: CLAWBACK_WINDOW_DAYS },
  };
}

// The hook: the writes that can make a referee qualify (onboarding complete, a quest completed) note it here, in
// the request's scope; once the handler succeeded (its transactions committed) the referral is settled in its own
// transaction (qualifyReferral), claim-once. Outside a request (a cron, a shared batch) nothing is noted: the
// sweep (GET /api/cron/referrals-settle, every 15 minutes) or the referee's next qualifying write settles it
// (docs/domains/referrals.md).

const KEY = Symbol("referral progress");

/** `userId` may have met the referral's qualifying action in the current request. */
export function noteReferralProgress(userId: string): void {
  requestState(KEY, (afterSuccess) => {
    const users = new Set<string>();
    afterSuccess(async () => {
      for (const u of users) {
        try {
          await qualifyReferral(u);
        } catch (error) {
          // The request's own write committed; the sweep cron or the referee's next qualifying write settles it.
          log("warn", { msg: "referral qualification failed", userId: u, error: error instanceof Error ? error.message : String(error) });
        }
      }
    });
    return users;
  })?.add(userId);
}
