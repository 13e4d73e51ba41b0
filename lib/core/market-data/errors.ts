import { defineErrors } from "../../kernel/errors";

// Error codes of market data (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  ALERT_LIMIT: { status: 409, description: "The caller has the most price alerts one fan may keep (50); delete one first." },
});
