import type { DbTx } from "../../db/client";
import { notFound } from "../../kernel/errors";

type InviteWithCount = { code: string; createdAt: Date; _count: { redemptions: number } };
const toMyInvite = (i: InviteWithCount) => ({ code: i.code, redemptions: i._count.redemptions, createdAt: i.createdAt.toISOString() });

/** The caller's invite, or null when none exists. Never writes. */
export async function getMyInvite(db: DbTx, userId: string) {
  const invite = await db.invite.findUnique({
    where: { userId },
    select: { code: true, createdAt: true, _count: { select: { redemptions: true } } },
  });
  return invite ? toMyInvite(invite) : null;
}

export const INVITER_SELECT = { handle: true, displayName: true, avatarUrl: true } as const;

/** Public preview of a code (already upper-cased): the inviter's public profile fields, nothing else. */
export async function getInvitePreview(db: DbTx, code: string) {
  const invite = await db.invite.findUnique({ where: { code }, select: { code: true, user: { select: INVITER_SELECT } } });
  if (!invite) throw notFound("Invite code");
  return { code: invite.code, inviter: invite.user, valid: true as const };
}
