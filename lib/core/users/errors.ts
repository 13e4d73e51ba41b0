import { defineErrors } from "../../kernel/errors";

// Error codes of users: profile, blocks, terms (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  USERNAME_TAKEN: { status: 409, description: "The display handle belongs to another user." },
  FAVORITE_TEAMS_LIMIT: { status: 409, description: "At most 5 favorite teams, not counting official teams." },
  CANNOT_BLOCK_SELF: { status: 400, description: "A user cannot block themselves." },
  TIMEZONE_CHANGE_TOO_SOON: { status: 409, description: "The time zone changed less than 24 hours ago; details name when it may change next." },
  TERMS_VERSION_MISMATCH: { status: 409, description: "The Terms of Use version accepted is not the current one." },
});
