import { defineErrors } from "../../kernel/errors";

// Error codes of binders (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  BINDER_LIMIT_REACHED: { status: 409, description: "The caller already has the most binders allowed (50)." },
  BINDER_FULL: { status: 409, description: "The binder already holds the most items allowed (500)." },
});
