import { defineErrors } from "../../kernel/errors";

// Error codes of teams (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts): none beyond the shared ones yet.
export const errors = defineErrors({});
