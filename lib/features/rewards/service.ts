import { createHash } from "node:crypto";
import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { debit } from "../../core/rep/service";
import { REWARD_REDEMPTION } from "../../core/rep/service";
import { activeRewards, callerProgress, claimById, lockRepBalance, metricValue, toCatalogReward, type MilestoneMetric } from "./queries";
import { takeRewardStock } from "./writes";
import { fulfil, prepareFulfilment, toClaimView } from "./fulfilment";
import type { RedeemInput } from "./schemas";
import { errors as rewardsErrors } from "./errors";

// Rewards: redeem (Rep spent through debit(), a negative ledger entry) and milestone claims (free, once). Every
// write of one user runs under that user's row lock, so per-user limits, the idempotency replay and the balance are
// decided one request at a time; stock is taken by one conditional UPDATE, so concurrent buyers of the last item
// (different users, different locks) get it exactly once. Refusals write nothing.

/** The catalog (active rewards) with the caller's eligibility and milestone progress: two queries, whatever the size. */
export async function getCatalog(db: DbTx, userId: string) {
  const [rows, me] = await Promise.all([activeRewards(db, userId), callerProgress(db, userId)]);
  return { rewards: rows.map((r) => toCatalogReward(r, me)), me };
}

const requestHash = (rewardId: string) => createHash("sha256").update(`redeem\u0000${rewardId}`).digest("hex");

async function lockBalance(tx: DbTx, userId: string): Promise<number> {
  const balance = await lockRepBalance(tx, userId);
  if (balance === undefined) throw notFound("User");
  return balance;
}

/** Takes one item of a limited stock: a conditional UPDATE, so the last item goes to exactly one of any number of buyers. */
async function takeStock(tx: DbTx, reward: { id: string; stock: number | null }): Promise<number | null> {
  if (reward.stock === null) return null;
  if (reward.stock <= 0) throw outOfStock();
  const left = await takeRewardStock(tx, reward.id);
  if (!left) throw outOfStock();
  return left.stock;
}

const outOfStock = () => new DomainError(rewardsErrors.OUT_OF_STOCK, "This reward is out of stock.");
const insufficientRep = (cost: number, balance: number) =>
  new DomainError(rewardsErrors.INSUFFICIENT_REP, `This reward costs ${cost} Rep; your balance is ${balance}.`);

/**
 * Redeems a redeem reward with spendable Rep. Same idempotency key and reward: the first result again with
 * replayed: true; same key, another reward: 409 IDEMPOTENCY_KEY_REUSED. Checks in order: unknown or inactive → 404,
 * milestone reward → REWARD_NOT_REDEEMABLE, no stock → OUT_OF_STOCK, per-user limit → REWARD_LIMIT_REACHED, balance →
 * INSUFFICIENT_REP; then the stock is taken, the claim written and the Rep debited, in one transaction.
 */
export async function redeem(db: Db, userId: string, input: RedeemInput) {
  const hash = requestHash(input.rewardId);
  return db.$transaction(async (tx) => {
    const balance = await lockBalance(tx, userId);

    const prior = await tx.rewardClaim.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: input.idempotencyKey } } });
    if (prior) {
      if (prior.requestHash !== hash) {
        throw new DomainError(sharedErrors.IDEMPOTENCY_KEY_REUSED, "This idempotency key was already used to redeem a different reward.");
      }
      const reward = await tx.reward.findUnique({ where: { id: prior.rewardId }, select: { stock: true } });
      return { claim: await claimView(tx, prior.id), balance, stock: reward?.stock ?? null, replayed: true };
    }

    const reward = await tx.reward.findUnique({ where: { id: input.rewardId } });
    if (!reward || !reward.active) throw notFound("Reward");
    if (reward.kind !== "redeem") {
      throw new DomainError(
        rewardsErrors.REWARD_NOT_REDEEMABLE,
        "This is a milestone reward: claim it free with POST /api/rewards/claim once you reach the milestone.",
      );
    }
    if (reward.stock !== null && reward.stock <= 0) throw outOfStock();
    if (reward.perUserLimit !== null) {
      const taken = await tx.rewardClaim.count({ where: { userId, rewardId: reward.id } });
      if (taken >= reward.perUserLimit) {
        throw new DomainError(rewardsErrors.REWARD_LIMIT_REACHED, `This reward can be redeemed at most ${reward.perUserLimit} time(s) per account.`);
      }
    }
    const cost = Number(reward.costRep);
    if (balance < cost) throw insufficientRep(cost, balance);
    const address = await prepareFulfilment(tx, userId, reward);

    const stock = await takeStock(tx, reward);
    let claim = await tx.rewardClaim.create({
      data: { userId, rewardId: reward.id, kind: "redeem", costRep: cost, idempotencyKey: input.idempotencyKey, requestHash: hash },
    });
    let after = balance;
    if (cost > 0) {
      const spent = await debit(tx, userId, {
        earnKind: REWARD_REDEMPTION,
        amount: cost,
        source: "serviceDirect",
        reason: `Redeemed: ${reward.title}`,
        grantKey: `${REWARD_REDEMPTION}:${claim.id}`,
        targetId: reward.id,
      });
      // Unreachable under the row lock (the balance was read under it); the conditional UPDATE and the CHECK back it.
      if (!spent) throw insufficientRep(cost, balance);
      after = spent.balance;
      claim = await tx.rewardClaim.update({ where: { id: claim.id }, data: { repEntryId: spent.entry.id } });
    }
    await fulfil(tx, claim.id, reward, address);
    return { claim: await claimView(tx, claim.id), balance: after, stock, replayed: false };
  }, txOptions(10_000));
}

/**
 * Claims a milestone reward, free and once (claim_key = the reward id, unique per user). Checks in order: unknown or
 * inactive → 404, redeem reward → REWARD_NOT_CLAIMABLE, claimed before → ALREADY_CLAIMED, milestone not reached →
 * MILESTONE_NOT_REACHED, no stock (when the reward has a stock) → OUT_OF_STOCK.
 */
export async function claim(db: Db, userId: string, rewardId: string) {
  return db.$transaction(async (tx) => {
    await lockBalance(tx, userId);
    const reward = await tx.reward.findUnique({ where: { id: rewardId } });
    if (!reward || !reward.active) throw notFound("Reward");
    if (reward.kind !== "milestone") {
      throw new DomainError(rewardsErrors.REWARD_NOT_CLAIMABLE, "This reward is bought with Rep: redeem it with POST /api/rewards/redeem.");
    }
    const prior = await tx.rewardClaim.findUnique({ where: { userId_claimKey: { userId, claimKey: reward.id } }, select: { id: true } });
    if (prior) throw alreadyClaimed();

    const metric: MilestoneMetric = reward.milestone ?? "rep_earned";
    const target = reward.milestoneValue ?? 0;
    const progress = metricValue(await callerProgress(tx, userId), metric);
    if (progress < target) {
      throw new DomainError(rewardsErrors.MILESTONE_NOT_REACHED, `This reward unlocks at ${target} (${metric}); you are at ${progress}.`);
    }
    const address = await prepareFulfilment(tx, userId, reward);
    const stock = await takeStock(tx, reward);
    const created = await tx.rewardClaim.create({ data: { userId, rewardId: reward.id, kind: "milestone", costRep: 0, claimKey: reward.id } });
    await fulfil(tx, created.id, reward, address);
    return { claim: await claimView(tx, created.id), stock };
  }, txOptions(10_000));
}

/** The claim as its owner sees it, with its fulfilment (read in the transaction that wrote it). */
async function claimView(tx: DbTx, claimId: string) {
  return toClaimView((await claimById(tx, claimId))!);
}

const alreadyClaimed = () => new DomainError(rewardsErrors.ALREADY_CLAIMED, "You already claimed this reward; milestone rewards are claimed once.");
