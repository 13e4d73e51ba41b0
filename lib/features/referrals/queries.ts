import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";
import { CLAWBACK_WINDOW_DAYS, QUALIFY_WINDOW_DAYS } from "./rules";

// Reads of referrals: the inviter's referees with their state, the totals, the month's cap usage, and what the
// settlement and the claw-back read under their locks. Never writes.

export type ReferralState = "joined" | "qualified" | "rewarded" | "clawed_back" | "expired";

export interface ReferralRow {
  refereeId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  joinedAt: Date;
  state: ReferralState;
  qualifiedAt: Date | null;
  referrerRep: number;
  clawedBackAt: Date | null;
  clawedBackRep: number | null;
}

/**
 * A referee's state, from its invite_redemptions row `ir` and referral_rewards row `rr` (LEFT JOIN): the reward's
 * state when it was settled; else expired when the qualifying window passed or the account was erased; else joined.
 */
export const STATE_SQL = Prisma.sql`CASE
  WHEN rr.state IS NOT NULL THEN rr.state
  WHEN ir.created_at < now() - make_interval(days => ${QUALIFY_WINDOW_DAYS})
    OR EXISTS (SELECT 1 FROM account_deletions d WHERE d.user_id = ir.invitee_id AND d.state = 'erased') THEN 'expired'
  ELSE 'joined' END`;

/** A page of the inviter's referees, newest first by (joined, referee id), over invite_redemptions' index in that order. */
export function referralsPage(db: DbTx, inviterId: string, after: { at: Date; id: string } | undefined, take: number) {
  const cursor = after ? Prisma.sql`AND (ir.created_at, ir.invitee_id) < (${after.at}, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<ReferralRow[]>`
    SELECT ir.invitee_id::text AS "refereeId", u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl",
           ir.created_at AS "joinedAt", ${STATE_SQL} AS state, rr.qualified_at AS "qualifiedAt",
           COALESCE(rr.referrer_amount, 0) AS "referrerRep", rr.clawed_back_at AS "clawedBackAt", rr.clawed_back_amount AS "clawedBackRep"
    FROM invite_redemptions ir
    JOIN users u ON u.id = ir.invitee_id
    LEFT JOIN referral_rewards rr ON rr.referee_id = ir.invitee_id
    WHERE ir.inviter_id = ${inviterId}::uuid ${cursor}
    ORDER BY ir.created_at DESC, ir.invitee_id DESC
    LIMIT ${take}`;
}

export interface ReferralTotals {
  total: number;
  joined: number;
  qualified: number;
  rewarded: number;
  clawedBack: number;
  expired: number;
  /** Rep the inviter kept from referrals: rewards less what claw-backs took. */
  repEarned: number;
}

/** Every referee of the inviter counted by state, and the Rep kept, in one statement (the inviter_id index). */
export async function referralTotals(db: DbTx, inviterId: string): Promise<ReferralTotals> {
  const [row] = await raw(db).$queryRaw<ReferralTotals[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE s.state = 'joined')::int AS joined,
           count(*) FILTER (WHERE s.state = 'qualified')::int AS qualified,
           count(*) FILTER (WHERE s.state = 'rewarded')::int AS rewarded,
           count(*) FILTER (WHERE s.state = 'clawed_back')::int AS "clawedBack",
           count(*) FILTER (WHERE s.state = 'expired')::int AS expired,
           COALESCE(sum(s.kept), 0)::int AS "repEarned"
    FROM (SELECT ${STATE_SQL} AS state, COALESCE(rr.referrer_amount, 0) - COALESCE(rr.clawed_back_amount, 0) AS kept
          FROM invite_redemptions ir LEFT JOIN referral_rewards rr ON rr.referee_id = ir.invitee_id
          WHERE ir.inviter_id = ${inviterId}::uuid) s`;
  return row!;
}

/** Referrer rewards counted against the inviter's cap in `month` (claw-backs still count: the cap counts rewards granted). */
export async function monthUsage(db: DbTx, referrerId: string, month: string): Promise<number> {
  const [row] = await raw(db).$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM referral_rewards WHERE referrer_id = ${referrerId}::uuid AND month = ${month}`;
  return row?.n ?? 0;
}

/**
 * Referees who meet the qualifying action inside their window but whose referral is not settled: the hook missed
 * them (a qualifying write outside a request, or a settlement that failed). Oldest joins first, over the index on
 * invite_redemptions (created_at, invitee_id); each candidate costs a primary-key probe of the rewards and the user
 * and one of the quest index.
 */
export async function unsettledReferees(db: DbTx, take: number): Promise<string[]> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT ir.invitee_id::text AS id
    FROM invite_redemptions ir JOIN users u ON u.id = ir.invitee_id
    WHERE ir.created_at >= now() - make_interval(days => ${QUALIFY_WINDOW_DAYS})
      AND u.onboarded_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM referral_rewards rr WHERE rr.referee_id = ir.invitee_id)
      AND EXISTS (SELECT 1 FROM quest_progress p WHERE p.user_id = ir.invitee_id AND p.completed_at IS NOT NULL)
    ORDER BY ir.created_at, ir.invitee_id
    LIMIT ${take}`;
  return rows.map((r) => r.id);
}

/** Whether the referee meets the qualifying action and is still in its window, read with the invite's referrer. */
export async function referralCandidate(db: DbTx, refereeId: string) {
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

/** Locks both users' rows (FOR NO KEY UPDATE, as lockUser) in id order, for the rest of the transaction. */
export async function lockUsersInIdOrder(tx: DbTx, refereeId: string, referrerId: string): Promise<void> {
  await raw(tx).$queryRaw`
    SELECT 1 FROM users WHERE id IN (${refereeId}::uuid, ${referrerId}::uuid) ORDER BY id FOR NO KEY UPDATE`;
}

/** Whether the user's account was erased. */
export async function isErased(db: DbTx, userId: string): Promise<boolean> {
  const [{ erased }] = await raw(db).$queryRaw<{ erased: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM account_deletions WHERE user_id = ${userId}::uuid AND state = 'erased') AS erased`;
  return erased;
}

/**
 * The referee's rewarded referral, its row locked (FOR UPDATE), with the referrer's amount and whether the deletion
 * was requested (or, without a request, now is) within CLAWBACK_WINDOW_DAYS of joining.
 */
export async function lockRewardedReferral(tx: DbTx, refereeId: string) {
  const [row] = await raw(tx).$queryRaw<{ referrerId: string; amount: number; within: boolean }[]>`
    SELECT rr.referrer_id::text AS "referrerId", rr.referrer_amount AS amount,
           (COALESCE(d.requested_at, now()) <= ir.created_at + make_interval(days => ${CLAWBACK_WINDOW_DAYS})) AS within
    FROM referral_rewards rr
    JOIN invite_redemptions ir ON ir.invitee_id = rr.referee_id
    LEFT JOIN account_deletions d ON d.user_id = rr.referee_id
    WHERE rr.referee_id = ${refereeId}::uuid AND rr.state = 'rewarded'
    FOR UPDATE OF rr`;
  return row;
}

/** The referrer's credit for the referee (grant key referral:<refereeId>), the referrer's balance, and whether staff reversed it. */
export async function referrerCreditOf(db: DbTx, referrerId: string, refereeId: string) {
  const [credit] = await raw(db).$queryRaw<{ id: string; balance: bigint; reversed: boolean }[]>`
    SELECT e.id::text, u.rep_balance AS balance,
           EXISTS (SELECT 1 FROM rep_entries x WHERE x.user_id = e.user_id AND x.grant_key = 'reversal:' || e.id::text) AS reversed
    FROM rep_entries e JOIN users u ON u.id = e.user_id
    WHERE e.user_id = ${referrerId}::uuid AND e.grant_key = ${`referral:${refereeId}`}`;
  return credit;
}
