import * as pendingNfts from "@/app/api/user/nfts/pending/route";

// The collectibles economy: the caller's unminted NFT queue.
export const routes = {
  "/api/user/nfts/pending": pendingNfts,
};

export const internalRoutes = {};
