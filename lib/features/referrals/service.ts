import { db as defaultDb, type Db, type DbTx } from "../../db/client";
import { raw } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { award, debit } from "../../core/rep/service";
import { log } from "../../kernel/log";
import { monthUsage, referralsPage, referralTotals, unsettledReferees, type ReferralRow } from "./queries";
import { CLAWBACK_WINDOW_DAYS, MONTHLY_CAP, monthOf, QUALIFY_WINDOW_DAYS, REFEREE_REP, REFERRAL_REFEREE, REFERRAL_REFERRER, REFERRER_REP } from "./rules";
import { requestState } from "../../kernel/request-scope";

// Referrals (docs/domains/referrals.md, decision 0051): a fan who joined with an invite (lib/features/invites'
// invite_redemptions) qualifies once onboarding is complete and a first quest is completed, within
// QUALIFY_WINDOW_DAYS of joining. Qualifying is settled once, in its own transaction after the write that met it
// (noteReferralProgress: the hook), under both users' row locks in id order: the referral_rewards row (primary key: the
// referee) is the claim, both credits go through lib/core/rep's award() with grant keys, and the referrer's monthly cap is
// counted under the referrer's lock, so concurrent qualifications of many referees of one referrer never pass it.

/** Whether the referee meets the qualifying action and is still in its window, read with the invite's referrer. */
async function candidate(db: DbTx, refereeId: string) {
  const [row] = await raw(db).$queryRaw<{ referrerId: string; ready: boolean; settled: boolean }[]>`
    SELECT ir.inviter_id::text AS "referrerId",
           (u.onboarded_at IS NOT NULL
            AND ir.created_at >= now() - make_interval(days => ${QUALIFY_WINDOW_DAYS})
            AND EXISTS (SELECT 1 FROM quest_progress p WHERE p.user_id = ir.invitee_id AND p.completed_at IS NOT NULL)) AS ready,
           EXISTS (SELECT 1 FROM referral_rewards rr WHERE rr.referee_id = ir.invitee_id) AS settled
    FROM invite_redemptions ir JOIN users u ON u.id = ir.invitee_id
    WHERE ir.invitee_id = ${refereeId}::uuid`;
  return row;
}

export type Qualified = { state: "qualified" | "rewarded"; referrerRep: number; refereeRep: number } | null;

/**
 * Settles the referee's referral if they qualify and it is not settled yet: one transaction, both users' rows locked
 * (FOR NO KEY UPDATE, as lockUser) in id order, then the claim re-read under them. The referee is always credited
 * REFEREE_REP (grant key referral:referee); the referrer REFERRER_REP (grant key referral:<refereeId>) only while
 * their rewards this calendar month (UTC) are under MONTHLY_CAP, else the state is "qualified" and the referrer gets
 * nothing. An erased referrer gets nothing either. Null when there is nothing to do. Idempotent and race-free.
 */
export async function qualifyReferral(refereeId: string, db: Db = defaultDb, now = new Date()): Promise<Qualified> {
  const seen = await candidate(db, refereeId);
  if (!seen || !seen.ready || seen.settled) return null;
  const referrerId = seen.referrerId;
  return db.$transaction(async (tx) => {
    await raw(tx).$queryRaw`
      SELECT 1 FROM users WHERE id IN (${refereeId}::uuid, ${referrerId}::uuid) ORDER BY id FOR NO KEY UPDATE`;
    const again = await candidate(tx, refereeId);
    if (!again || !again.ready || again.settled) return null;

    const month = monthOf(now);
    const [{ erased }] = await raw(tx).$queryRaw<{ erased: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM account_deletions WHERE user_id = ${referrerId}::uuid AND state = 'erased') AS erased`;
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
    await raw(tx).$executeRaw`
      INSERT INTO referral_rewards (referee_id, referrer_id, state, month, referrer_amount, referee_amount, qualified_at)
      VALUES (${refereeId}::uuid, ${referrerId}::uuid, ${state}, ${credited ? month : null}, ${referrerRep}, ${REFEREE_REP}, ${now})`;
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
  const [row] = await raw(tx).$queryRaw<{ referrerId: string; amount: number; within: boolean }[]>`
    SELECT rr.referrer_id::text AS "referrerId", rr.referrer_amount AS amount,
           (COALESCE(d.requested_at, now()) <= ir.created_at + make_interval(days => ${CLAWBACK_WINDOW_DAYS})) AS within
    FROM referral_rewards rr
    JOIN invite_redemptions ir ON ir.invitee_id = rr.referee_id
    LEFT JOIN account_deletions d ON d.user_id = rr.referee_id
    WHERE rr.referee_id = ${refereeId}::uuid AND rr.state = 'rewarded'
    FOR UPDATE OF rr`;
  if (!row || !row.within || row.amount <= 0) return null;
  await lockUser(tx, row.referrerId);
  const [credit] = await raw(tx).$queryRaw<{ id: string; balance: bigint; reversed: boolean }[]>`
    SELECT e.id::text, u.rep_balance AS balance,
           EXISTS (SELECT 1 FROM rep_entries x WHERE x.user_id = e.user_id AND x.grant_key = 'reversal:' || e.id::text) AS reversed
    FROM rep_entries e JOIN users u ON u.id = e.user_id
    WHERE e.user_id = ${row.referrerId}::uuid AND e.grant_key = ${`referral:${refereeId}`}`;
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
  await raw(tx).$executeRaw`
    UPDATE referral_rewards SET state = 'clawed_back', clawed_back_at = now(), clawed_back_amount = ${take}
    WHERE referee_id = ${refereeId}::uuid AND state = 'rewarded'`;
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
