import { defineErrors } from "../http/errors";

// Error codes of push delivery: none of its own so far (its routes answer the shared codes, sharedErrors in
// lib/http/errors.ts: validation, auth, rate limit).
export const errors = defineErrors({});
