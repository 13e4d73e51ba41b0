import { defineErrors } from "../../kernel/errors";

// Error codes of the audit log: none of its own yet (writing an entry fails only with the change it records).
export const errors = defineErrors({});
