import * as mintWorker from "@/app/api/cron/nft-mints/route";
import * as packPurchase from "@/app/api/packs/[id]/purchase/route";
import * as pendingNfts from "@/app/api/user/nfts/pending/route";
import * as mints from "@/app/api/v1/nfts/mints/route";
import * as nftWallet from "@/app/api/v1/nfts/wallet/route";

// The NFT mint queue (the linked wallet, mint requests, the unminted queue, the worker); the removed pack purchase.
export const routes = {
  "/api/user/nfts/pending": pendingNfts,
  "/api/packs/{id}/purchase": packPurchase,
  "/api/v1/nfts/wallet": nftWallet,
  "/api/v1/nfts/mints": mints,
};

export const internalRoutes = {
  "/api/cron/nft-mints": mintWorker,
};
