import { defineErrors } from "../http/errors";

// Error codes of the console rollups (the shared codes are sharedErrors in lib/http/errors.ts): none beyond the shared ones.
export const errors = defineErrors({});
