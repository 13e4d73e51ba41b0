import { defineErrors } from "../../kernel/errors";

// Error codes of search (lib/features/search; the shared codes are sharedErrors in lib/kernel/errors.ts): none beyond the shared
// ones (a bad q, type, language, limit or cursor is 400 VALIDATION_ERROR naming the parameter).
export const errors = defineErrors({});
