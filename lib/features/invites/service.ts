import { randomBytes } from "node:crypto";
import type { DbTx } from "../../db/client";
import { DomainError, notFound } from "../../kernel/errors";
import { getMyInvite, INVITER_SELECT } from "./queries";
import { claimRedemption, insertInvite, type RedemptionRow } from "./writes";
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH } from "./schemas";
import { errors as invitesErrors } from "./errors";

// One invite code per user (invites.user_id is unique) and one redemption per invitee (invite_redemptions is
// keyed by invitee_id). Both rules are held by those constraints with INSERT … ON CONFLICT DO NOTHING, never by
// a read followed by a write.

/** A fresh code from the crypto RNG. The alphabet has 32 symbols, so `byte & 31` is unbiased. */
export function generateInviteCode(): string {
  const bytes = randomBytes(INVITE_CODE_LENGTH);
  let code = "";
  for (const b of bytes) code += INVITE_CODE_ALPHABET[b & 31];
  return code;
}

const MAX_CREATE_ATTEMPTS = 8;

/**
 * Returns the caller's invite, creating it first when missing. Idempotent and concurrency-safe: the insert skips
 * on any conflict, whether another request of this user created the row first (user_id unique) or the random
 * code belongs to someone else (code primary key); a re-read tells the two apart and a code collision retries
 * with a new code.
 */
export async function ensureMyInvite(db: DbTx, userId: string, generate: () => string = generateInviteCode) {
  for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt++) {
    const existing = await getMyInvite(db, userId);
    if (existing) return existing;
    await insertInvite(db, generate(), userId);
  }
  const created = await getMyInvite(db, userId);
  if (created) return created;
  throw new Error(`No free invite code after ${MAX_CREATE_ATTEMPTS} attempts`);
}

async function redemptionResult(db: DbTx, row: RedemptionRow, alreadyRedeemed: boolean) {
  const inviter = await db.user.findUnique({ where: { id: row.inviterId }, select: INVITER_SELECT });
  return {
    code: row.code,
    inviter: inviter ?? { handle: null, displayName: null, avatarUrl: null },
    redeemedAt: row.createdAt.toISOString(),
    alreadyRedeemed,
  };
}

/**
 * Redeems `code` (already upper-cased) for `userId`. One statement claims the redemption: the invitee_id primary
 * key lets exactly one of any number of concurrent attempts insert; the others wait for it and skip. A skipped
 * attempt then explains itself, in this order: unknown code → 404, own code → 409 INVITE_OWN_CODE, a different
 * code already redeemed → 409 INVITE_ALREADY_REDEEMED, the same code already redeemed → the first result again
 * with alreadyRedeemed: true.
 */
export async function redeemInvite(db: DbTx, userId: string, code: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await claimRedemption(db, userId, code);
    if (claimed) return redemptionResult(db, claimed, false);

    const invite = await db.invite.findUnique({ where: { code }, select: { userId: true } });
    if (!invite) throw notFound("Invite code");
    if (invite.userId === userId) throw new DomainError(invitesErrors.INVITE_OWN_CODE, "You cannot redeem your own invite code.");
    const prior = await db.inviteRedemption.findUnique({ where: { inviteeId: userId } });
    if (prior) {
      if (prior.code !== code) {
        throw new DomainError(invitesErrors.INVITE_ALREADY_REDEEMED, "This account already redeemed another invite code; only one is allowed.");
      }
      return redemptionResult(db, prior, true);
    }
    // The prior redemption vanished between the two statements (its invite was deleted): try again.
  }
  throw new Error("Invite redemption did not settle after 3 attempts");
}
