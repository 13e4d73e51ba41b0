import { defineErrors } from "../../kernel/errors";

// Error codes of who may post and comment (lib/core/visibility/service.ts: assertMayPost), listed on the routes that write
// posts and comments and on the console's sanctions.
export const errors = defineErrors({
  UGC_TERMS_REQUIRED: {
    status: 403,
    description: "The caller has not accepted the current Terms of Use (POST /api/user/terms), which posting and commenting require.",
  },
  POSTING_SUSPENDED: { status: 403, description: "Staff suspended the caller from posting and commenting until the time in details." },
});
