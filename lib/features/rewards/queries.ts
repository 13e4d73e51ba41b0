import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { REP_EARNED } from "../../core/rep/service";
import { int8, raw, type Int8 } from "../../db/raw";

// Reads of rewards: the catalog with the caller's claim counts, the caller's milestone metrics, the locks a redeem
// and a fulfilment change take, and the claims with their fulfilment. Never writes.

export type MilestoneMetric = "rep_earned" | "quests_completed" | "streak_days";

export interface RewardRow {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  kind: "redeem" | "milestone";
  costRep: number;
  stock: number | null;
  perUserLimit: number | null;
  milestone: MilestoneMetric | null;
  milestoneValue: number | null;
  fulfilment: "none" | "digital" | "voucher" | "physical";
  /** A voucher reward whose pool has no free code: a redeem would be refused (VOUCHER_POOL_EMPTY). */
  poolEmpty: boolean;
  /** The caller's claims (redemptions or the milestone claim) of this reward. */
  claimedCount: number;
}

export interface CallerProgress {
  balance: number;
  repEarned: number;
  questsCompleted: number;
  streakDays: number;
}

/** Every active reward with the caller's claim count of each, in catalog order: redeem first, then by cost, then id. One query. */
export async function activeRewards(db: DbTx, userId: string): Promise<RewardRow[]> {
  const rows = await raw(db).$queryRaw<Int8<RewardRow, "costRep">[]>`
    SELECT r.id, r.slug, r.title, r.description, r.kind::text AS kind, r.cost_rep AS "costRep", r.stock,
           r.per_user_limit AS "perUserLimit", r.milestone::text AS milestone, r.milestone_value AS "milestoneValue", r.fulfilment,
           (r.fulfilment = 'voucher' AND NOT EXISTS (SELECT 1 FROM reward_voucher_codes v WHERE v.reward_id = r.id AND v.claim_id IS NULL)) AS "poolEmpty",
           COALESCE(c.n, 0)::int AS "claimedCount"
    FROM rewards r
    LEFT JOIN (SELECT reward_id, count(*) AS n FROM reward_claims WHERE user_id = ${userId}::uuid GROUP BY reward_id) c ON c.reward_id = r.id
    WHERE r.active
    ORDER BY (r.kind = 'milestone'), r.cost_rep, r.id`;
  return rows.map((r) => int8(r, ["costRep"]));
}

/**
 * The caller's balance and milestone metrics, in one query. Rep earned (REP_EARNED, kept on the user's row) is
 * every credit, less the staff reversals of credits (a reversed grant unlocks nothing), while spending Rep never
 * lowers it. Quests completed counts quest_progress rows with completed_at; the streak is the longest.
 */
export async function callerProgress(db: DbTx, userId: string): Promise<CallerProgress> {
  const [row] = await raw(db).$queryRaw<Int8<CallerProgress, "balance" | "repEarned">[]>`
    SELECT u.rep_balance AS balance,
           GREATEST(0, ${REP_EARNED}) AS "repEarned",
           (SELECT count(*) FROM quest_progress p WHERE p.user_id = u.id AND p.completed_at IS NOT NULL)::int AS "questsCompleted",
           COALESCE((SELECT GREATEST(s.longest, s.current) FROM user_streaks s WHERE s.user_id = u.id), 0)::int AS "streakDays"
    FROM users u WHERE u.id = ${userId}::uuid`;
  return row ? int8(row, ["balance", "repEarned"]) : { balance: 0, repEarned: 0, questsCompleted: 0, streakDays: 0 };
}

export const metricValue = (p: CallerProgress, metric: MilestoneMetric): number =>
  metric === "rep_earned" ? p.repEarned : metric === "quests_completed" ? p.questsCompleted : p.streakDays;

export type UnavailableReason = "insufficient_rep" | "out_of_stock" | "limit_reached" | "milestone_not_reached" | "already_claimed";

/** What the caller may do with one reward now, and why not: the same rules redeem and claim enforce. */
export function eligibility(r: RewardRow, p: CallerProgress) {
  const outOfStock = (r.stock !== null && r.stock <= 0) || r.poolEmpty;
  if (r.kind === "redeem") {
    const reason: UnavailableReason | null = outOfStock
      ? "out_of_stock"
      : r.perUserLimit !== null && r.claimedCount >= r.perUserLimit
        ? "limit_reached"
        : p.balance < r.costRep
          ? "insufficient_rep"
          : null;
    return { canRedeem: reason === null, canClaim: false, reason, milestone: null };
  }
  const metric = r.milestone ?? "rep_earned";
  const target = r.milestoneValue ?? 0;
  const progress = metricValue(p, metric);
  const reached = progress >= target;
  const claimed = r.claimedCount > 0;
  const reason: UnavailableReason | null = claimed ? "already_claimed" : !reached ? "milestone_not_reached" : outOfStock ? "out_of_stock" : null;
  return { canRedeem: false, canClaim: reason === null, reason, milestone: { metric, target, progress, reached, claimed } };
}

export function toCatalogReward(r: RewardRow, p: CallerProgress) {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    kind: r.kind,
    fulfilment: r.fulfilment,
    costRep: r.costRep,
    stock: r.stock,
    perUserLimit: r.perUserLimit,
    claimedCount: r.claimedCount,
    ...eligibility(r, p),
  };
}

/** The user's spendable Rep, their row locked (FOR NO KEY UPDATE) for the rest of the transaction; none for an unknown user. */
export async function lockRepBalance(tx: DbTx, userId: string): Promise<number | undefined> {
  const rows = await tx.$queryRaw<{ rep_balance: bigint }[]>`SELECT rep_balance FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return rows[0] ? Number(rows[0].rep_balance) : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Fulfilment (lib/features/rewards/fulfilment.ts): the claims as their owner and staff see them.

export type FulfilmentKind = "none" | "digital" | "voucher" | "physical";
export type FulfilmentStatus = "fulfilled" | "pending" | "shipped" | "delivered" | "failed";

export interface ClaimRow {
  id: string;
  userId: string;
  rewardId: string;
  rewardTitle: string;
  kind: "redeem" | "milestone";
  costRep: number;
  repEntryId: string | null;
  claimedAt: Date;
  fulfilment: FulfilmentKind;
  status: FulfilmentStatus;
  voucherCode: string | null;
  trackingCode: string | null;
  note: string | null;
  shippingAddress: unknown;
  updatedAt: Date | null;
  refundedAt: Date | null;
  refundEntryId: string | null;
}

const CLAIM_COLUMNS = Prisma.sql`c.id::text, c.user_id::text AS "userId", c.reward_id AS "rewardId", r.title AS "rewardTitle", c.kind::text AS kind,
  c.cost_rep::int AS "costRep", c.rep_entry_id::text AS "repEntryId", c.claimed_at AS "claimedAt", r.fulfilment, c.fulfilment_status AS status,
  v.code AS "voucherCode", c.tracking_code AS "trackingCode", c.fulfilment_note AS note, c.shipping_address AS "shippingAddress",
  c.fulfilment_updated_at AS "updatedAt", c.refunded_at AS "refundedAt", c.refund_entry_id::text AS "refundEntryId"`;
const CLAIM_FROM = Prisma.sql`reward_claims c JOIN rewards r ON r.id = c.reward_id LEFT JOIN reward_voucher_codes v ON v.claim_id = c.id`;

export async function claimById(db: DbTx, claimId: string): Promise<ClaimRow | undefined> {
  const [row] = await raw(db).$queryRaw<ClaimRow[]>`SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM} WHERE c.id = ${claimId}::uuid`;
  return row;
}

/** The user's claims, newest first, before the id `after` (keyset on the UUIDv7 id, index (user_id, id DESC)). */
export function claimsOf(db: DbTx, userId: string, after: string | undefined, take: number): Promise<ClaimRow[]> {
  return raw(db).$queryRaw<ClaimRow[]>`
    SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM}
    WHERE c.user_id = ${userId}::uuid ${after ? Prisma.sql`AND c.id < ${after}::uuid` : Prisma.empty}
    ORDER BY c.id DESC LIMIT ${take}`;
}

/** Claims in one fulfilment status, oldest first, after the id `after` (index (fulfilment_status, id)). */
export function claimsInStatus(db: DbTx, status: FulfilmentStatus, after: string | undefined, take: number): Promise<ClaimRow[]> {
  return raw(db).$queryRaw<ClaimRow[]>`
    SELECT ${CLAIM_COLUMNS} FROM ${CLAIM_FROM}
    WHERE c.fulfilment_status = ${status} ${after ? Prisma.sql`AND c.id > ${after}::uuid` : Prisma.empty}
    ORDER BY c.id LIMIT ${take}`;
}

/** A claim's fulfilment status, reward and cost, its row locked (FOR UPDATE) for the rest of the transaction. */
export async function lockClaim(tx: DbTx, claimId: string) {
  const [locked] = await raw(tx).$queryRaw<{ status: FulfilmentStatus; rewardId: string; costRep: number }[]>`
    SELECT fulfilment_status AS status, reward_id AS "rewardId", cost_rep::int AS "costRep" FROM reward_claims WHERE id = ${claimId}::uuid FOR UPDATE`;
  return locked;
}

/** A reward's fulfilment kind, its row locked (FOR NO KEY UPDATE) for the rest of the transaction. */
export async function lockRewardFulfilment(tx: DbTx, rewardId: string) {
  const [reward] = await raw(tx).$queryRaw<{ fulfilment: string }[]>`SELECT fulfilment FROM rewards WHERE id = ${rewardId} FOR NO KEY UPDATE`;
  return reward;
}

/** How many codes of the reward's voucher pool no claim has taken yet. */
export async function freeVoucherCodes(db: DbTx, rewardId: string): Promise<number> {
  const [{ available }] = await raw(db).$queryRaw<{ available: number }[]>`
    SELECT count(*)::int AS available FROM reward_voucher_codes WHERE reward_id = ${rewardId} AND claim_id IS NULL`;
  return available;
}

/** The console's view of the rewards with a fulfilment to manage: each with its kind and, for vouchers, the free codes left. */
export async function fulfilmentRewards(db: DbTx) {
  return raw(db).$queryRaw<{ id: string; title: string; fulfilment: FulfilmentKind; active: boolean; freeCodes: number; pending: number }[]>`
    SELECT r.id, r.title, r.fulfilment, r.active,
           (SELECT count(*) FROM reward_voucher_codes v WHERE v.reward_id = r.id AND v.claim_id IS NULL)::int AS "freeCodes",
           (SELECT count(*) FROM reward_claims c WHERE c.reward_id = r.id AND c.fulfilment_status IN ('pending', 'shipped'))::int AS pending
    FROM rewards r ORDER BY r.active DESC, r.title, r.id LIMIT 200`;
}
