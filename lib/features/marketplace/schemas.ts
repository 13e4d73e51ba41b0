import { z } from "zod";
import { sellerReputation } from "../../core/market-data/schemas";
import { collectible, rarity } from "../../core/collectibles/schemas";
import { pageSchema } from "../../kernel/page";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

/** Items on each side of one trade (trade-schemas.ts). */
export const TRADE_MAX_ITEMS = 10;

/** The marketplace fee, in basis points of the sale price, kept from the seller's proceeds (rounded down). */
export const FEE_BPS = 500;
export const PRICE_MAX = 100_000_000;
export const AUCTION_MIN_HOURS = 1;
export const AUCTION_MAX_DAYS = 14;
export const OFFER_DEFAULT_HOURS = 72;
export const OFFER_MAX_HOURS = 168;
export const CART_MAX_LINES = 20;

const uuid = (name: string) => uuidString(`${name} (UUID).`);
const money = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(PRICE_MAX)
    .meta({ description: `${what}: integer minor units of COIN (hundredths), 1..${PRICE_MAX}.` });
const priceQuery = (what: string) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "Expected an integer")
    .transform(Number)
    .pipe(z.number().int().min(0).max(PRICE_MAX))
    .optional()
    .meta({ description: `${what} (minor units).` });

const party = z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() });

export const listing = z
  .object({
    id: z.string(),
    kind: z.enum(["fixed", "auction"]),
    status: z.enum(["active", "sold", "cancelled", "expired"]),
    seller: party.extend({
      reputation: sellerReputation.optional().meta({ description: "The seller's record (browsing and a listing's detail; up to a minute old)." }),
    }),
    collectible,
    currency: z.enum(["COIN"]),
    price: z.number().int().meta({ description: "Fixed: the price. Auction: the current bid, or the starting price before any bid." }),
    startingPrice: z.number().int().nullable(),
    minIncrement: z.number().int().nullable(),
    minNextBid: z.number().int().nullable().meta({ description: "Auction still open: the least the next bid may be." }),
    reserveMet: z.boolean().nullable().meta({ description: "Auction: whether the current bid meets the (undisclosed) reserve; null without a reserve." }),
    endsAt: isoDateTime.nullable(),
    ended: z.boolean().meta({ description: "Auction: its end time has passed (settled by the marketplace cron shortly after)." }),
    bidCount: z.number().int(),
    topBidderId: z.string().nullable(),
    sale: z
      .object({ buyerId: z.string(), price: z.number().int(), fee: z.number().int(), at: isoDateTime })
      .nullable()
      .meta({ description: "Once sold: the buyer, the price and the fee kept from the seller." }),
    refundedAt: isoDateTime.nullable().meta({ description: "When staff reversed the sale (buyer refunded, item back to the seller)." }),
    createdAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
  })
  .meta({ id: "Listing" });

export const listingResponse = z.object({ listing }).meta({ id: "ListingResponse" });
export const listingPage = pageSchema("listings", listing, { id: "ListingPage" });

const fixedListing = z.strictObject({
  kind: z.literal("fixed"),
  collectibleId: uuid("The collectible to sell, owned by the caller"),
  price: money("The price"),
});
const auctionListing = z.strictObject({
  kind: z.literal("auction"),
  collectibleId: uuid("The collectible to sell, owned by the caller"),
  startingPrice: money("The lowest first bid"),
  reservePrice: money("The least the auction sells for (undisclosed; without it any bid wins)").optional(),
  minIncrement: money("How much each bid must add to the current one (default: 1% of the starting price, at least 1.00)").optional(),
  endsAt: isoDateTime.meta({ description: `When bidding closes: ${AUCTION_MIN_HOURS} hour to ${AUCTION_MAX_DAYS} days ahead.` }),
});
export const createListingBody = z.discriminatedUnion("kind", [fixedListing, auctionListing]).meta({ id: "ListingCreate" });
export type CreateListingInput = z.infer<typeof createListingBody>;

export const listingsQuery = z.strictObject({
  status: z.enum(["active", "sold", "cancelled", "expired"]).optional().default("active").meta({ description: "Default active." }),
  kind: z.enum(["fixed", "auction"]).optional(),
  teamId: z.string().min(1).max(128).optional(),
  playerId: z.string().min(1).max(128).optional(),
  rarity: rarity.optional(),
  sellerId: uuid("Listings of this seller").optional(),
  minPrice: priceQuery("At least this price"),
  maxPrice: priceQuery("At most this price"),
  sort: z.enum(["newest", "price"]).optional().default("newest").meta({ description: "newest (default) or price (cheapest first)." }),
  cursor: cursorQuery,
  limit: intQuery(1, 50, 20),
});
export type ListingsQuery = z.infer<typeof listingsQuery>;

export const listingParams = z.strictObject({ listingId: uuid("Listing id") });
export const repriceBody = z.strictObject({ price: money("The new price") }).meta({ id: "ListingReprice" });

export const bid = z
  .object({
    id: z.string(),
    bidderId: z.string(),
    handle: z.string().nullable(),
    amount: z.number().int().meta({
      description: "What the bid stands at: the leading bid at the auction's price (its automatic raises included); a beaten bid at its maximum.",
    }),
    maxAmount: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The bidder's maximum (what the bid holds): shown only to the bidder themself, null to everyone else." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "Bid" });
export const bidPage = pageSchema("bids", bid, { id: "BidPage" });
export const bidBody = z
  .strictObject({
    amount: money("The bid: at least the listing's minNextBid"),
    maxAmount: money("The most the caller will pay (a proxy bid, default: the amount): held until outbid; the bid rises automatically up to it").optional(),
  })
  .meta({ id: "BidCreate" });
export const bidResult = z
  .object({
    bid,
    listing,
    leading: z.boolean().meta({ description: "Whether the caller leads now (false: an earlier bid's maximum was at least as high; this bid was refunded)." }),
  })
  .meta({ id: "BidResult" });
export const MY_BID_STATES = ["leading", "outbid", "won", "lost"] as const;
export const myAuction = z
  .object({
    listingId: z.string(),
    state: z.enum(MY_BID_STATES).meta({
      description: "leading or outbid while the auction is active (also between its end and its settlement); won (sold to the caller) or lost once closed.",
    }),
    bidCount: z.number().int().meta({ description: "How many bids the caller made on it." }),
    highestAmount: z.number().int().meta({ description: "The most any of the caller's bids stands (or stood) at." }),
    maxAmount: z.number().int().meta({ description: "The caller's highest maximum on it (theirs alone to see)." }),
    lastBidAt: isoDateTime,
    listing,
  })
  .meta({ id: "MyAuction" });
export const myAuctionPage = pageSchema("auctions", myAuction, { id: "MyAuctionPage" });
export const myBidsQuery = z.strictObject({
  state: z.enum(MY_BID_STATES).optional().meta({ description: "Only auctions in this state for the caller." }),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});
export const pageQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });

export const OFFER_STATUSES = ["open", "accepted", "declined", "cancelled", "expired"] as const;
export const offer = z
  .object({
    id: z.string(),
    collectibleId: z.string(),
    buyerId: z.string(),
    ownerId: z.string().meta({ description: "The item's owner now (who may accept or decline)." }),
    amount: z.number().int(),
    currency: z.enum(["COIN"]),
    status: z.enum(OFFER_STATUSES),
    sellerId: z.string().nullable().meta({ description: "Who accepted or declined it." }),
    fee: z.number().int().nullable(),
    expiresAt: isoDateTime,
    createdAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
  })
  .meta({ id: "Offer" });
export const offerResponse = z.object({ offer }).meta({ id: "OfferResponse" });
export const offerPage = pageSchema("offers", offer, { id: "OfferPage" });
export const offerBody = z
  .strictObject({
    collectibleId: uuid("The item, listed or not"),
    amount: money("The offer, held from the caller's wallet until it closes"),
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(OFFER_MAX_HOURS)
      .optional()
      .default(OFFER_DEFAULT_HOURS)
      .meta({ description: `1..${OFFER_MAX_HOURS}, default ${OFFER_DEFAULT_HOURS}.` }),
  })
  .meta({ id: "OfferCreate" });
export const offersQuery = z.strictObject({
  role: z
    .enum(["made", "received"])
    .optional()
    .default("made")
    .meta({ description: "made (default): the caller's offers; received: offers on items the caller owns." }),
  status: z.enum(OFFER_STATUSES).optional(),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 20),
});
export const offerParams = z.strictObject({ offerId: uuid("Offer id") });

export const cartLine = z
  .object({
    listingId: z.string(),
    addedPrice: z.number().int().meta({ description: "The price when added: checkout pays exactly this or refuses." }),
    addedAt: isoDateTime,
    available: z.boolean().meta({ description: "The listing is still active." }),
    priceChanged: z.boolean(),
    listing: listing.nullable(),
  })
  .meta({ id: "CartLine" });
export const cart = z
  .object({ lines: z.array(cartLine), total: z.number().int().meta({ description: "Sum of the available lines' prices." }) })
  .meta({ id: "Cart" });
export const cartAddBody = z.strictObject({ listingId: uuid("A fixed-price listing") }).meta({ id: "CartAdd" });
export const cartLineParams = z.strictObject({ listingId: uuid("Listing id") });
export const checkoutResult = z
  .object({
    orders: z.array(z.object({ listingId: z.string(), collectibleId: z.string(), price: z.number().int() })),
    total: z.number().int(),
    balance: z.number().int().meta({ description: "The caller's COIN balance after paying." }),
  })
  .meta({ id: "CheckoutResult" });

export const WISH_TYPES = ["card", "collectible"] as const;
export const wishlistItem = z
  .object({
    id: z.string(),
    itemType: z.enum(WISH_TYPES),
    itemId: z.string(),
    listingId: z.string().nullable().meta({ description: "The listing it was added from, if any." }),
    createdAt: isoDateTime,
    cheapestListing: z
      .object({ id: z.string(), price: z.number().int() })
      .nullable()
      .meta({ description: "The cheapest active listing of the item now (any copy of a card)." }),
  })
  .meta({ id: "WishlistItem" });
export const wishlistResponse = z.object({ item: wishlistItem }).meta({ id: "WishlistItemResponse" });
export const wishlistPage = pageSchema("items", wishlistItem, { id: "WishlistPage" });
/** Either `listingId`, or both `itemType` and `itemId` (the spec's rule; anything else is a 400 naming the fields). */
export const wishlistBody = z
  .strictObject({
    listingId: uuid("Add the item of this listing").optional(),
    itemType: z.enum(WISH_TYPES).optional().meta({ description: "card (any copy of a catalog card) or collectible (one copy)." }),
    itemId: z.string().min(1).max(128).optional().meta({ description: "The card id or collectible id." }),
  })
  .superRefine((b, ctx) => {
    const byListing = b.listingId !== undefined;
    const byItem = b.itemType !== undefined || b.itemId !== undefined;
    if (byListing && byItem) {
      for (const path of ["listingId", "itemType", "itemId"])
        ctx.addIssue({ code: "custom", path: [path], message: "Send either listingId, or itemType and itemId" });
    } else if (!byListing && !(b.itemType !== undefined && b.itemId !== undefined)) {
      for (const path of byItem ? [b.itemType === undefined ? "itemType" : "itemId"] : ["listingId", "itemType", "itemId"]) {
        ctx.addIssue({
          code: "custom",
          path: [path],
          message: byItem ? "Required with the other item field" : "Send either listingId, or itemType and itemId",
        });
      }
    }
  })
  .meta({ id: "WishlistAdd" });
export type WishlistInput = z.infer<typeof wishlistBody>;
export const wishParams = z.strictObject({ itemId: uuid("Wishlist entry id") });
