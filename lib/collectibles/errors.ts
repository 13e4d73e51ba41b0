import { defineErrors } from "../http/errors";

// Error codes of collectibles (merged into the one catalogue in lib/http/errors.ts): none beyond the shared ones yet.
export const errors = defineErrors({});
