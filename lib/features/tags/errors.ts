import { defineErrors } from "../../kernel/errors";

// Error codes of tags, mentions and trends (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  TAG_FOLLOW_LIMIT: { status: 409, description: "The caller already follows the most tags one may follow (TAG_FOLLOWS_MAX): unfollow one first." },
});
