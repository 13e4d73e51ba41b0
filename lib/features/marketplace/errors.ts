import { defineErrors } from "../../kernel/errors";

// Error codes of the marketplace (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts). Refusals that depend on the
// state of a listing, offer or cart are 409: the request was well formed, the market moved.
export const errors = defineErrors({
  ALREADY_LISTED: { status: 409, description: "The collectible already has an active listing (an item is listed at most once at a time)." },
  LISTING_UNAVAILABLE: { status: 409, description: "The listing is no longer active (sold, cancelled, ended) or is not of the kind this action needs." },
  CANNOT_BUY_OWN: { status: 403, description: "Sellers cannot buy, bid on or offer for their own items." },
  AUCTION_ENDED: { status: 409, description: "The auction's end time has passed: no more bids; it is settled by the marketplace cron." },
  BID_TOO_LOW: { status: 409, description: "The bid is below the minimum next bid (in details): the starting price, or the current bid plus the increment." },
  HAS_BIDS: { status: 409, description: "An auction with bids cannot be cancelled by its seller." },
  OFFER_EXISTS: { status: 409, description: "The caller already has an open offer on this item: cancel it first." },
  OFFER_CLOSED: { status: 409, description: "The offer is no longer open (accepted, declined, cancelled or expired)." },
  OFFER_BUYER_CANNOT_TRADE: {
    status: 409,
    description:
      "Accepting: the offer's buyer can no longer trade (restricted from trading, deletion pending, or a frozen wallet; which one is not said). The offer is now cancelled, nothing moved, and the buyer's held funds are back.",
  },
  ITEM_MINTED: {
    status: 409,
    description: "The collectible is minted to a wallet, or its mint is queued or running: it can no longer be listed, offered for or change hands here.",
  },
  ITEM_IN_AUCTION: { status: 409, description: "The item is in a running auction: it cannot change hands outside it." },
  CART_EMPTY: { status: 409, description: "The cart has no lines to check out." },
  CART_CHANGED: { status: 409, description: "A cart line is no longer available or its price changed (details name each): nothing was bought." },
  CART_FULL: { status: 409, description: "The cart holds its maximum number of lines." },
  // Trades and gifts (lib/features/marketplace/trades.ts). The TRADE_ITEM_*, TRADE_FUNDS_SHORT and TRADE_WALLET_FROZEN codes are
  // also the void reasons: answered by an accept, the trade is then void and its held coins are back.
  TRADE_CLOSED: { status: 409, description: "The trade is no longer open (accepted, declined, cancelled, expired, void or countered)." },
  TRADE_ITEM_GONE: {
    status: 409,
    description:
      "An item of the trade is not (or no longer) its side's: the proposer's offered items must be the proposer's, the asked items the recipient's (details name each). On accept the trade is now void, nothing moved and the held coins are back.",
  },
  TRADE_ITEM_LISTED: {
    status: 409,
    description:
      "An item of the trade is in an active listing or a running auction (details name each). On accept the trade is now void, nothing moved and the held coins are back.",
  },
  TRADE_ITEM_MINTED: {
    status: 409,
    description:
      "An item of the trade is minted to a wallet, or its mint is queued or running (details name each). On accept the trade is now void, nothing moved and the held coins are back.",
  },
  TRADE_ITEM_LOCKED: {
    status: 409,
    description:
      "An item of the trade is in an entry of a collection challenge that has not ended, or in a lineup of a contest that has not settled (details name each). On accept the trade is now void, nothing moved and the held coins are back.",
  },
  TRADE_FUNDS_SHORT: {
    status: 409,
    description: "Accepting: the recipient's balance does not cover the coins asked. The trade is now void, nothing moved and the held coins are back.",
  },
  TRADE_WALLET_FROZEN: {
    status: 409,
    description:
      "Accepting: a party's wallet is frozen (it owes coins), or the proposer may no longer trade (restricted, or deleting the account). The trade is now void, nothing moved and the held coins are back.",
  },
  REFUSED_BY_USER: {
    status: 409,
    description: "The other user refuses the caller's offers and trade proposals (their offer settings), or one of them blocked the other.",
  },
  OFFER_BELOW_MINIMUM: { status: 409, description: "The offer is below the least the item's owner takes for its card (the minimum in details)." },
});
