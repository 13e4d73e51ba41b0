import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";

// The invites' writes: each one rule held by a constraint with INSERT … ON CONFLICT DO NOTHING (service.ts).

/** Creates the user's invite with the code; nothing when the user has one or the code is taken. */
export const insertInvite = (db: DbTx, code: string, userId: string) =>
  raw(db).$executeRaw`INSERT INTO invites (code, user_id) VALUES (${code}, ${userId}::uuid) ON CONFLICT DO NOTHING`;

export interface RedemptionRow {
  code: string;
  inviterId: string;
  createdAt: Date;
}

/** Redeems the code for the user, unless it is unknown, theirs, or they redeemed one already (then none). */
export async function claimRedemption(db: DbTx, userId: string, code: string): Promise<RedemptionRow | undefined> {
  const [claimed] = await raw(db).$queryRaw<RedemptionRow[]>`
    INSERT INTO invite_redemptions (invitee_id, code, inviter_id)
    SELECT ${userId}::uuid, i.code, i.user_id FROM invites i
    WHERE i.code = ${code} AND i.user_id <> ${userId}::uuid
    ON CONFLICT (invitee_id) DO NOTHING
    RETURNING code, inviter_id::text AS "inviterId", created_at AS "createdAt"`;
  return claimed;
}
