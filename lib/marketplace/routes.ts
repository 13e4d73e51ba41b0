import * as staffCancel from "@/app/api/admin/marketplace/listings/[listingId]/cancel/route";
import * as staffRefund from "@/app/api/admin/marketplace/listings/[listingId]/refund/route";
import * as cron from "@/app/api/cron/marketplace/route";
import * as cartItem from "@/app/api/v1/marketplace/cart/items/[listingId]/route";
import * as cartItems from "@/app/api/v1/marketplace/cart/items/route";
import * as cart from "@/app/api/v1/marketplace/cart/route";
import * as checkout from "@/app/api/v1/marketplace/checkout/route";
import * as bids from "@/app/api/v1/marketplace/listings/[listingId]/bids/route";
import * as buy from "@/app/api/v1/marketplace/listings/[listingId]/buy/route";
import * as listing from "@/app/api/v1/marketplace/listings/[listingId]/route";
import * as listings from "@/app/api/v1/marketplace/listings/route";
import * as accept from "@/app/api/v1/marketplace/offers/[offerId]/accept/route";
import * as cancel from "@/app/api/v1/marketplace/offers/[offerId]/cancel/route";
import * as decline from "@/app/api/v1/marketplace/offers/[offerId]/decline/route";
import * as offers from "@/app/api/v1/marketplace/offers/route";
import * as wish from "@/app/api/v1/marketplace/wishlist/[itemId]/route";
import * as wishlist from "@/app/api/v1/marketplace/wishlist/route";

// The marketplace: listings (fixed price, auctions with bids), offers, the cart and checkout, the wishlist; the
// settlement cron and staff cancellation.
export const routes = {
  "/api/v1/marketplace/listings": listings,
  "/api/v1/marketplace/listings/{listingId}": listing,
  "/api/v1/marketplace/listings/{listingId}/buy": buy,
  "/api/v1/marketplace/listings/{listingId}/bids": bids,
  "/api/v1/marketplace/offers": offers,
  "/api/v1/marketplace/offers/{offerId}/accept": accept,
  "/api/v1/marketplace/offers/{offerId}/decline": decline,
  "/api/v1/marketplace/offers/{offerId}/cancel": cancel,
  "/api/v1/marketplace/cart": cart,
  "/api/v1/marketplace/cart/items": cartItems,
  "/api/v1/marketplace/cart/items/{listingId}": cartItem,
  "/api/v1/marketplace/checkout": checkout,
  "/api/v1/marketplace/wishlist": wishlist,
  "/api/v1/marketplace/wishlist/{itemId}": wish,
};

export const internalRoutes = {
  "/api/cron/marketplace": cron,
  "/api/admin/marketplace/listings/{listingId}/cancel": staffCancel,
  "/api/admin/marketplace/listings/{listingId}/refund": staffRefund,
};
