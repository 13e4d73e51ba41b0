import { defineErrors } from "../../kernel/errors";

// Error codes of the remote config (thrown by its services, listed on its routes; FEATURE_DISABLED, which the
// pipeline answers for a paused feature, is a shared code in lib/kernel/errors.ts): none of its own beyond the shared ones.
export const errors = defineErrors({});
