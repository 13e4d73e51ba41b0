import { defineErrors } from "../../kernel/errors";

// Error codes of contests (thrown by lib/features/contests, listed on its routes; the shared codes are sharedErrors in
// lib/kernel/errors.ts). A card locked elsewhere answers challenges' ITEM_LOCKED (the one definition of a locked item),
// a listed or minted card challenges' ENTRY_ITEM_LISTED and ENTRY_ITEM_MINTED.
export const errors = defineErrors({
  CONTEST_LOCKED: {
    status: 409,
    description: "The contest is locked (its first covered game kicked off, or its lock time passed): lineups can no longer be made, changed or withdrawn.",
  },
  CONTEST_NOT_SETTLED: {
    status: 409,
    description: "The contest has not settled yet: its leaderboard exists once every covered game is over and it is scored.",
  },
  LINEUP_SIZE: { status: 422, description: "The lineup does not hold exactly the contest's lineup size in cards, or names a slot the contest does not have." },
  LINEUP_POSITION: { status: 422, description: "A card's player does not play a position its slot accepts (details name each)." },
  LINEUP_RARITY_CAP: {
    status: 422,
    description: "The lineup holds more cards of a rarity than the contest's cap for it (details name each card past the cap).",
  },
  LINEUP_PLAYER_NOT_COVERED: {
    status: 422,
    description: "A card is not a player card, or its player's team plays in none of the contest's games (details name each).",
  },
});
