import { defineErrors } from "../../kernel/errors";

// Error codes of drops (thrown by lib/features/drops, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  DROP_NOT_OPEN: {
    status: 409,
    description: "The drop does not take this now: not open yet for the caller (details: when it opens for them; allowlisted fans earlier), or closed.",
  },
  DROP_ALREADY_ENTERED: { status: 409, description: "The caller already entered this draw (one entry per fan; withdraw it to enter again)." },
  DROP_CAP_REACHED: { status: 409, description: "This would pass the drop's per-fan cap (details: the cap and what the caller has)." },
  DROP_SOLD_OUT: { status: 409, description: "Every pack of the drop is sold (details: what is left when fewer than asked)." },
  DROP_NOT_YOUR_TURN: {
    status: 409,
    description: "Waiting room: the caller's position is not served yet (details: position and the last position served now).",
  },
  DROP_ENTRY_CLOSED: { status: 409, description: "The entry cannot be withdrawn any more: the draw has run or the drop has closed." },
});
