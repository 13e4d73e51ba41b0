import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";

// Invite codes: 8 characters from a 32-symbol alphabet with no 0/O or 1/I, so a code read aloud or copied by
// hand survives. Stored upper-case; lookups accept any case. 32^8 ≈ 1.1e12 codes.
export const INVITE_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const INVITE_CODE_LENGTH = 8;
export const INVITE_CODE_PATTERN = /^[A-HJ-NP-Za-hj-np-z2-9]{8}$/;

export const inviteCode = z
  .string()
  .regex(INVITE_CODE_PATTERN, "An invite code is 8 characters: letters A-Z without I and O, digits 2-9")
  .transform((code) => code.toUpperCase())
  .meta({ description: "Invite code, 8 characters from A-Z (no I, O) and 2-9; case-insensitive.", examples: ["K7M2QX9D"] });

export const inviteCodeParams = z.strictObject({ code: inviteCode });

export const inviter = z
  .object({
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  })
  .meta({ id: "InviteInviter", description: "The inviter's public profile fields only." });

export const myInvite = z
  .object({
    code: z.string().meta({ description: "The caller's invite code (upper-case)." }),
    redemptions: z.number().int().meta({ description: "How many accounts redeemed this code." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "Invite" });

export const myInviteOrNull = myInvite.nullable().meta({
  description: "The caller's invite, or null when none was created yet (POST /api/invites/me creates it).",
});

export const invitePreview = z
  .object({
    code: z.string().meta({ description: "The code, normalized to upper-case." }),
    inviter,
    valid: z.literal(true).meta({ description: "Always true: unknown codes answer 404." }),
  })
  .meta({ id: "InvitePreview" });

export const redeemResult = z
  .object({
    code: z.string(),
    inviter,
    redeemedAt: isoDateTime.meta({ description: "When the caller redeemed the code (the first time)." }),
    alreadyRedeemed: z.boolean().meta({ description: "True when this request repeats an earlier successful redemption of the same code." }),
  })
  .meta({ id: "InviteRedemption" });
