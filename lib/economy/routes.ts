import * as packPurchase from "@/app/api/packs/[id]/purchase/route";
import * as pendingNfts from "@/app/api/user/nfts/pending/route";

// The collectibles economy: the caller's unminted NFT queue; the removed pack purchase.
export const routes = {
  "/api/user/nfts/pending": pendingNfts,
  "/api/packs/{id}/purchase": packPurchase,
};

export const internalRoutes = {};
