import type { DbTx } from "../../db/client";
import { REP_EARNED } from "../../core/rep/service";
import { int8, raw, type Int8 } from "../../db/raw";

// Reads of rewards: the catalog with the caller's claim counts, and the caller's milestone metrics. Never writes.

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
