import { defineErrors } from "../../kernel/errors";

// Error codes of the console rollups (the shared codes are sharedErrors in lib/kernel/errors.ts): none beyond the shared ones.
export const errors = defineErrors({});
