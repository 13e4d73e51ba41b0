import { defineErrors } from "../../kernel/errors";

// Error codes of poll votes (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  POLL_CLOSED: { status: 409, description: "The poll has closed: no more votes." },
  ALREADY_VOTED: { status: 409, description: "The caller already voted in this poll (a vote is final)." },
});
