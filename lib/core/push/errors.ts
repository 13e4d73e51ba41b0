import { defineErrors } from "../../kernel/errors";

// Error codes of push delivery: none of its own so far (its routes answer the shared codes, sharedErrors in
// lib/kernel/errors.ts: validation, auth, rate limit).
export const errors = defineErrors({});
