import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";

// Writes of referrals: the settlement's claim (a referral_rewards row) and its claw-back.

/** The referee's referral settled: the claim (primary key: the referee), with what each side was credited. */
export async function insertReferralReward(
  tx: DbTx,
  r: { refereeId: string; referrerId: string; state: "qualified" | "rewarded"; month: string | null; referrerRep: number; refereeRep: number; now: Date },
): Promise<void> {
  await raw(tx).$executeRaw`
    INSERT INTO referral_rewards (referee_id, referrer_id, state, month, referrer_amount, referee_amount, qualified_at)
    VALUES (${r.refereeId}::uuid, ${r.referrerId}::uuid, ${r.state}, ${r.month}, ${r.referrerRep}, ${r.refereeRep}, ${r.now})`;
}

/** The referee's rewarded referral moves to clawed_back, with the Rep taken back. */
export async function markClawedBack(tx: DbTx, refereeId: string, taken: number): Promise<void> {
  await raw(tx).$executeRaw`
    UPDATE referral_rewards SET state = 'clawed_back', clawed_back_at = now(), clawed_back_amount = ${taken}
    WHERE referee_id = ${refereeId}::uuid AND state = 'rewarded'`;
}
