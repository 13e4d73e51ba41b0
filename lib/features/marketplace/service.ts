// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { closeListing, closeOffer, lockListing, lockOffer, offerById, staleListings } from "./queries";
export { refundBid } from "./ownership";
export { refundOffer } from "./offers";
export { closeTradesOf } from "./trades";
export { lockOpenTradesOf, tradeLedgerMismatches } from "./trade-queries";
// The marketplace module's service: the route handlers' and the staff console's one entry point, re-exporting the
// feature files that hold the rules: listings.ts, auctions.ts (bids and the settlement cron), offers.ts, cart.ts,
// wishlist.ts, trades.ts (trades and gifts), offer-settings.ts, and ownership.ts (the lock order, settle, the fee, toListing: what every change of owner shares).
export { feeOf, toListing } from "./ownership";
export { browseListings, buyListing, cancelListing, cancelListingAsStaff, createListing, getListing, refundSale, repriceListing } from "./listings";
export { listBids, listMyBids, placeBid, runMarketplaceCron } from "./auctions";
export { openAuctionStream } from "./auction-changes";
export { acceptOffer, cancelOffer, declineOffer, getOffer, listOffers, makeOffer } from "./offers";
export { addToCart, checkout, getCart, removeFromCart } from "./cart";
export { addWish, listWishes, removeWish } from "./wishlist";
export { acceptTrade, cancelTrade, counterTrade, declineTrade, getTrade, listTrades, proposeTrade, voidTradeAsStaff } from "./trades";
export { getOfferSettings, putOfferSettings } from "./offer-settings";
