import { defineErrors } from "../../kernel/errors";

// Error codes of mutes and keyword filters (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  CANNOT_MUTE_SELF: { status: 400, description: "The caller tried to mute their own account." },
  MUTE_LIMIT: { status: 409, description: "The caller mutes the most accounts one may (1,000): unmute one first." },
  FILTER_LIMIT: {
    status: 409,
    description: "The caller has the most keyword filters one may (100), or the filters would hold more than 200 keywords in all: remove some first.",
  },
});
