import { defineErrors } from "../../kernel/errors";

// Error codes of following fans (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  CANNOT_FOLLOW_SELF: { status: 400, description: "A fan cannot follow themselves." },
  FOLLOW_BLOCKED: { status: 403, description: "One of the two fans blocked the other: no follow or follow request between them." },
  PROFILE_PRIVATE: { status: 403, description: "The profile is private: only its followers (and the fan themselves) see whom it follows and who follows it." },
});
