import { defineErrors } from "../../kernel/errors";

// Error codes of account deletion (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  DELETION_IN_PROGRESS: {
    status: 409,
    description: "The erasure has claimed this account's deletion (or finished it): it can no longer be cancelled.",
  },
  ACCOUNT_DELETION_PENDING: {
    status: 409,
    description:
      "The account is scheduled for deletion: until the deletion is cancelled (DELETE /api/v1/me/deletion) it cannot list, bid, offer, buy, trade or top up.",
  },
});
