import { defineErrors } from "../../kernel/errors";

// Error codes of collection challenges (thrown by its services, listed on its routes; the shared codes are sharedErrors
// in lib/kernel/errors.ts). ITEM_LOCKED is also answered by every path an item could leave by (listing, accepting an
// offer, mint requests, checkout, staff refunds): refuseLocked in lib/features/marketplace/ownership.ts.
export const errors = defineErrors({
  ITEM_LOCKED: {
    status: 409,
    description:
      "The collectible is in a collector's entry of a collection challenge that has not ended, or in a lineup of a contest that has not settled (details name the challenge or contest): it cannot be listed, change hands, be minted or go in another entry or lineup until the challenge ends (or the entry is withdrawn) or the contest settles (or the lineup is withdrawn before the lock).",
  },
  CHALLENGE_NOT_STARTED: { status: 409, description: "The challenge has not started yet: entries open at its startsAt." },
  CHALLENGE_ENDED: { status: 409, description: "The challenge has ended: entries can no longer be made, changed or withdrawn." },
  ENTRY_COMPLETED: {
    status: 409,
    description: "The caller's entry already completed the set: its items stay in it until the challenge ends (the same items again answer the entry).",
  },
  ENTRY_ITEM_LISTED: { status: 409, description: "A collectible named is in an active listing or a running auction (details name each): cancel it first." },
  ENTRY_ITEM_MINTED: { status: 409, description: "A collectible named is minted to a wallet, or its mint is queued or running (details name each)." },
  REWARD_CARD_SHORT: { status: 409, description: "Creating: the reward card's edition has fewer copies left than the reward supply asked." },
});
