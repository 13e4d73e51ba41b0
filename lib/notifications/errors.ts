import { defineErrors } from "../http/errors";

// Error codes of notifications (merged into the one catalogue in lib/http/errors.ts): none beyond the shared ones.
export const errors = defineErrors({});
