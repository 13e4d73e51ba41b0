import { defineErrors } from "../../kernel/errors";

// Error codes of push devices (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  DEVICE_LIMIT: { status: 409, description: "The caller has the most devices an account may register (20): remove one first." },
});
