import { defineErrors } from "../../kernel/errors";

// Error codes of invites (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  INVITE_ALREADY_REDEEMED: { status: 409, description: "This account already redeemed an invite." },
  INVITE_OWN_CODE: { status: 409, description: "An invite code cannot be redeemed by its owner." },
});
